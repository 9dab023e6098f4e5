// The WebSocket driver: zot's protocol with an extension at a URL (one frame per text message).
// Connecting (headers' `${VAR}`s expanded then and never shown: messages show the manifest's
// `${VAR}`s; a header value HTTP cannot carry is a diagnostic of the extension, not a crash;
// certificates verified, plain ws:// only to this machine unless the manifest says `insecure`), pings that find a dead peer, and a shutdown that
// waits for `shutdown_ack` or the close. A refused or dropped connection fails the record like a
// crash; reconnecting is the host's (a fresh record, after a backoff).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { WebSocket } from "ws";
import type { ExtensionFrame } from "../../../protocol/index.ts";
import { expandVariables } from "../../catalog/dot-mcp-json.ts";
import { headerProblem, unsafeUrlProblem } from "../../catalog/manifest-url.ts";
import { unexpand } from "../../catalog/unexpand.ts";
import { providerKeyProblem } from "../../catalog/permissions/passed-variables.ts";
import type { DriverContext, ExtensionDriver, RemoteDescription } from "../extension.ts";
import { openExtensionLog, type ExtensionLog } from "../spawn.ts";
import { FramedDriver } from "./framed-driver.ts";
import { socketStreams } from "./socket-streams.ts";

interface Target {
  url: string;
  /** The URL as the manifest writes it, `${VAR}`s unexpanded: what messages show. */
  shownUrl: string;
  headers: Record<string, string>;
  ca?: Buffer;
}

export class WebSocketDriver extends FramedDriver {
  readonly execLabel = "url";
  readonly usesSdk = false;
  readonly isolation = null;
  protected readonly lineLabel = "message";
  private socket: WebSocket | undefined;
  private file: ExtensionLog | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private awaitingPong = false;
  private connectedAfterMs: number | null = null;
  private openedAt = 0;
  private handshakeMs: number | null = null;
  private closed: Promise<void> = Promise.resolve();
  private acked: (() => void) | undefined;
  /** Its manifest could be used, so a failure from now on is the connection's. */
  reconnectable = false;

  get logPath(): string | undefined {
    return this.file?.logPath;
  }

  log(message: string): void {
    this.file?.log(message);
  }

  protected dataDir(): string {
    return this.ext.dir;
  }

  describe(): { remote: RemoteDescription } {
    return { remote: { url: this.ext.candidate.loaded!.manifest.url!, connectMs: this.connectedAfterMs, handshakeMs: this.handshakeMs } };
  }

  start(): void {
    const { ext, sink } = this.context;
    const manifest = ext.candidate.loaded!.manifest;
    this.file = openExtensionLog(sink.logPath(ext.name), `connecting to ${ext.name}: ${manifest.url}`);
    for (const warning of ext.warnings) this.log(`warning: ${warning}`);
    let target: Target;
    try {
      target = this.target();
    } catch (err) {
      return ext.fail(`cannot start: ${this.shown((err as Error).message)}`);
    }
    this.reconnectable = true;
    void import("ws").then(({ WebSocket }) => this.connect(WebSocket, target), (err: Error) => ext.fail(`cannot start: ${err.message}`));
  }

  /** `message` with every value the manifest's `${VAR}`s expand to shown as `${VAR}` again. */
  private shown(message: string): string {
    const manifest = this.ext.candidate.loaded!.manifest;
    return unexpand(message, [manifest.url!, ...Object.values(manifest.headers ?? {})], process.env);
  }

  /** The URL, headers and CA as connecting uses them (variables expanded now, never recorded). */
  private target(): Target {
    const manifest = this.ext.candidate.loaded!.manifest;
    const keyProblem = this.ext.candidate.scope === "project" ? providerKeyProblem(manifest) : undefined;
    if (keyProblem) throw new Error(keyProblem);
    const env = process.env;
    const url = expandVariables(manifest.url!, env);
    const shownUrl = manifest.url!;
    if (!URL.canParse(url) || !/^wss?:\/\//i.test(url)) throw new Error(`url ${shownUrl} is not a ws:// or wss:// URL once its variables are expanded`);
    const problem = unsafeUrlProblem(url, manifest.insecure);
    if (problem) throw new Error(problem);
    const headers = Object.fromEntries(Object.entries(manifest.headers ?? {}).map(([k, v]) => [k, expandVariables(v, env)]));
    for (const [name, value] of Object.entries(headers)) {
      const headerIssue = headerProblem(name, value);
      if (headerIssue) throw new Error(`${headerIssue} (once its variables are expanded)`);
    }
    if (!manifest.ca) return { url, shownUrl, headers };
    const caFile = resolve(this.ext.dir, manifest.ca);
    try {
      return { url, shownUrl, headers, ca: readFileSync(caFile) };
    } catch (err) {
      throw new Error(`ca ${caFile}: ${(err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (err as Error).message}`);
    }
  }

  private connect(WebSocketClass: typeof WebSocket, target: Target): void {
    const { ext, timeouts, limits } = this.context;
    if (ext.stopping || ext.phase !== "starting") return;
    const started = Date.now();
    let socket: WebSocket;
    try {
      socket = new WebSocketClass(target.url, {
        headers: target.headers, ...(target.ca ? { ca: target.ca } : {}),
        // The frame limit per message (plus a tolerated newline); a larger one closes with 1009.
        maxPayload: limits.maxFrameBytes + 1, handshakeTimeout: timeouts.hello, perMessageDeflate: false,
      });
    } catch (err) {
      // The client checks the URL and headers as it builds the request, and throws.
      return ext.fail(`cannot connect to ${target.shownUrl}: ${this.shown((err as Error).message)}`);
    }
    this.socket = socket;
    this.closed = new Promise((r) => socket.once("close", () => r()));
    socket.on("unexpected-response", (_request, response) => {
      ext.fail(`cannot connect to ${target.shownUrl}: the server answered the upgrade with HTTP ${response.statusCode}`);
      socket.terminate();
    });
    socket.on("error", (err) => {
      if (ext.stopping) return;
      const why = this.shown(err.message);
      ext.fail(this.connectedAfterMs === null ? `cannot connect to ${target.shownUrl}: ${why}` : `disconnected: ${why}`);
    });
    socket.on("close", (code, reason) => {
      if (ext.stopping || ext.phase === "failed" || ext.phase === "stopped") return;
      const why = `code ${code}${reason.length ? `: ${this.shown(reason.toString())}` : ""}`;
      ext.fail(`the server closed the connection (${why}) ${ext.phase === "starting" ? "before sending hello" : "unexpectedly"}`);
    });
    socket.on("pong", () => (this.awaitingPong = false));
    socket.on("open", () => {
      this.connectedAfterMs = Date.now() - started;
      this.log(`connected in ${this.connectedAfterMs} ms`);
      const { output, input } = socketStreams(socket, () => ext.fail("sent a binary message; frames are text messages"));
      // Connecting and hello share the hello window.
      this.open(output, input, Math.max(0, timeouts.hello - this.connectedAfterMs));
      this.openedAt = Date.now();
      this.pingTimer = setInterval(() => this.ping(), timeouts.ping);
    });
  }

  /** A peer that did not answer the last ping within one interval is gone. */
  private ping(): void {
    if (this.awaitingPong) return this.ext.fail(`no pong within ${this.context.timeouts.ping} ms: the connection is dead`);
    this.awaitingPong = true;
    this.socket?.ping();
  }

  protected override receive(frame: ExtensionFrame): void {
    // The handshake's time: open → hello → hello_ack → registrations → ready.
    if (frame.type === "ready" && this.handshakeMs === null) this.handshakeMs = Date.now() - this.openedAt;
    if (frame.type === "shutdown_ack") this.acked?.();
    super.receive(frame);
  }

  abort(reason: string): void {
    this.stopTimers();
    this.conn?.close(reason);
    this.socket?.terminate();
  }

  /** Drains, sends `shutdown`, waits for `shutdown_ack` or the close within the grace, then closes. */
  async shutdown(): Promise<void> {
    this.stopTimers();
    const grace = this.context.timeouts.shutdownGrace;
    const deadline = Date.now() + grace;
    const socket = this.socket;
    if (this.conn && !this.conn.closed) {
      if (await this.conn.drain(Math.max(0, deadline - Date.now()))) {
        const acked = new Promise<void>((r) => (this.acked = r));
        this.conn.send({ type: "shutdown" });
        let timer: ReturnType<typeof setTimeout> | undefined;
        const late = new Promise<boolean>((r) => (timer = setTimeout(() => r(true), Math.max(0, deadline - Date.now()))));
        if (await Promise.race([acked.then(() => false), this.closed.then(() => false), late])) {
          this.log(`no shutdown_ack within ${grace} ms of shutdown; closing the connection`);
        }
        clearTimeout(timer);
      } else this.log(`its queued frames did not drain within the ${grace} ms shutdown grace; closing the connection`);
    }
    this.conn?.close("the extension was shut down");
    if (socket && socket.readyState !== socket.CLOSED) {
      socket.close(1000, "zot is done with this session");
      // A peer that does not answer the close handshake is cut off.
      const timer = setTimeout(() => socket.terminate(), Math.max(100, deadline - Date.now()));
      await this.closed;
      clearTimeout(timer);
    }
    this.file?.dispose();
  }

  private stopTimers(): void {
    this.clearTimers();
    clearInterval(this.pingTimer);
  }
}

export const createWebSocketDriver = (context: DriverContext): ExtensionDriver => new WebSocketDriver(context);
