// One run of the protocol: hello → hello_ack → onHello → registrations → ready, then routing of
// host frames until `shutdown` (answered with `shutdown_ack`) or EOF. Requests (commands, tools,
// interceptions) run concurrently; events and panel callbacks run one at a time in arrival order,
// so a handler sees keys and events in the order the host sent them.
import {
  parseHostFrame,
  PROTOCOL_VERSION,
  type HelloAckFrame,
  type HostFrame,
  type ParseResult,
} from "../protocol/index.ts";
import type { CallToolClient } from "./call-tool.ts";
import { describeError } from "./errors.ts";
import { HandlerRunner } from "./handlers.ts";
import { decideIntercept } from "./intercept.ts";
import type { LineSource } from "./reader.ts";
import type { HandlerRegistry } from "./registry.ts";
import { commandResponseFrame, noop } from "./responses.ts";
import { errorResult, toolResultFrame } from "./results.ts";
import type { Awaitable, HostInfo, LifecycleEvent } from "./types.ts";
import type { FrameWriter, OutboundFrame } from "./writer.ts";

/** How a run ended: the host asked (`shutdown`) or closed the connection (`eof`). */
export type RunOutcome = "shutdown" | "eof";

export interface ConnectionDeps {
  hello: OutboundFrame;
  /** Where host frame lines come from (stdin, or a WebSocket's messages). */
  input: LineSource;
  writer: FrameWriter;
  registry: HandlerRegistry;
  calls: CallToolClient;
  log(message: string): void;
  onHello?: (host: HostInfo) => Awaitable<void>;
  /** hello_ack arrived. */
  onHost(host: HostInfo): void;
  /** `ready` was sent: one-way frames may flow. */
  onReady(): void;
  maxFrameBytes?: number;
}

type Phase = "handshake" | "setup" | "running" | "closed";

export function hostInfoFrom(ack: HelloAckFrame): HostInfo {
  return {
    protocolVersion: ack.protocol_version,
    zotVersion: ack.zot_version,
    provider: ack.provider,
    model: ack.model,
    cwd: ack.cwd,
    extensionDir: ack.extension_dir,
    dataDir: ack.data_dir,
    capabilities: ack.capabilities ?? [],
  };
}

export class HostConnection {
  private phase: Phase = "handshake";
  /** Frames that arrived while onHello ran; dispatched after `ready`. */
  private readonly early: HostFrame[] = [];
  private serial: Promise<void> = Promise.resolve();
  private stopReading: (() => void) | undefined;
  /** `shutdown` or EOF seen; the run ends on the next timer tick. */
  private ending = false;
  private host: HostInfo = { protocolVersion: 0, capabilities: [] };
  private readonly handlers: HandlerRunner;
  private resolveDone!: (outcome: RunOutcome) => void;
  readonly done = new Promise<RunOutcome>((resolve) => (this.resolveDone = resolve));

  constructor(private readonly deps: ConnectionDeps) {
    this.handlers = new HandlerRunner({
      registry: deps.registry,
      calls: deps.calls,
      send: (frame) => deps.writer.send(frame),
      log: deps.log,
      host: () => this.host,
    });
  }

  /** Sends hello and starts reading. Settles `done` when the run ends. */
  start(): Promise<RunOutcome> {
    this.deps.writer.send(this.deps.hello);
    this.stopReading = this.deps.input({
      onLine: (line) => this.onLine(line),
      onEnd: () => this.finishSoon("eof"),
      log: this.deps.log,
      maxFrameBytes: this.deps.maxFrameBytes,
    });
    return this.done;
  }

  private onLine(line: string): void {
    if (this.phase === "closed" || this.ending) return;
    const parsed = parseHostFrame(line);
    if (!parsed.ok) return this.onInvalid(parsed);
    const frame = parsed.frame;
    if (frame.type === "shutdown") return this.finishSoon("shutdown");
    switch (this.phase) {
      case "handshake":
        if (frame.type === "hello_ack") {
          this.phase = "setup";
          this.setup(frame);
        } else this.deps.log(`ignored a ${frame.type} frame that came before hello_ack`);
        return;
      case "setup":
        // onHello may itself be waiting on a callTool result: settle those now.
        if (frame.type === "tool_result") this.dispatch(frame);
        else this.early.push(frame);
        return;
      default:
        this.dispatch(frame);
    }
  }

  /** Runs onHello, then announces. Synchronous when onHello is, so frames that arrived in the
   * same chunk as hello_ack are handled in order right after `ready`. */
  private setup(ack: HelloAckFrame): void {
    this.host = hostInfoFrom(ack);
    if (ack.protocol_version !== PROTOCOL_VERSION) {
      this.deps.log(`the host speaks protocol version ${ack.protocol_version}; this SDK speaks ${PROTOCOL_VERSION}`);
    }
    this.deps.calls.setHostCapabilities(this.host.capabilities);
    this.deps.onHost(this.host);
    const failed = (err: unknown): void =>
      this.deps.log(`onHello failed: ${err instanceof Error && err.stack ? err.stack : describeError(err)}`);
    let pending: unknown;
    try {
      pending = this.deps.onHello?.(this.host);
    } catch (err) {
      failed(err);
    }
    if (pending instanceof Promise) pending.catch(failed).then(() => this.announce());
    else this.announce();
  }

  private announce(): void {
    if (this.phase !== "setup") return; // shut down meanwhile
    for (const frame of this.deps.registry.announcement()) {
      try {
        this.deps.writer.send(frame);
      } catch (err) {
        this.deps.log(`skipped a registration: ${describeError(err)}`);
      }
    }
    this.deps.writer.send({ type: "ready" });
    this.phase = "running";
    this.deps.onReady();
    for (const frame of this.early.splice(0)) this.dispatch(frame);
  }

  private dispatch(frame: HostFrame): void {
    const { registry, log } = this.deps;
    switch (frame.type) {
      case "command_invoked":
        return this.handlers.command(frame);
      case "tool_call":
        return this.handlers.tool(frame);
      case "tool_cancel":
        return this.handlers.cancel(frame.id);
      case "tool_result":
        if (!this.deps.calls.settle(frame)) log(`ignored a tool_result for unknown call ${frame.id}`);
        return;
      case "event_intercept":
        void decideIntercept(frame, registry.interceptors, log).then((reply) => this.send(reply));
        return;
      case "event":
        for (const handler of registry.events.get(frame.event) ?? []) {
          this.inOrder(`${frame.event} handler`, () => handler(frame as LifecycleEvent));
        }
        return;
      case "panel_key": {
        const handler = registry.panelKeys.get(frame.panel_id);
        if (handler) this.inOrder(`panel ${frame.panel_id} key handler`, () => handler(frame.key, frame.text ?? ""));
        return;
      }
      case "panel_close": {
        const handler = registry.panelCloses.get(frame.panel_id);
        if (handler) this.inOrder(`panel ${frame.panel_id} close handler`, () => handler());
        return;
      }
      case "hello_ack":
        log("ignored a repeated hello_ack");
        return;
    }
  }

  /** A frame that failed validation: still answer a request the host will otherwise wait for. */
  private onInvalid(parsed: Extract<ParseResult<HostFrame>, { ok: false }>): void {
    if (parsed.unknownType) return this.deps.log(`ignored a frame of unknown type "${parsed.type}"`);
    this.deps.log(`ignored an invalid host frame: ${parsed.error}`);
    if (this.phase !== "running" || parsed.id === undefined || parsed.id === "") return;
    const why = `invalid ${parsed.type} frame: ${parsed.error}`;
    if (parsed.type === "tool_call") this.send(toolResultFrame(parsed.id, errorResult(why)));
    else if (parsed.type === "command_invoked") this.send(commandResponseFrame(parsed.id, noop(why)));
    else if (parsed.type === "event_intercept") this.send({ type: "event_intercept_response", id: parsed.id });
  }

  private inOrder(what: string, fn: () => unknown): void {
    this.serial = this.serial.then(async () => {
      try {
        await fn();
      } catch (err) {
        this.deps.log(`${what} failed: ${err instanceof Error && err.stack ? err.stack : describeError(err)}`);
      }
    });
  }

  private send(frame: OutboundFrame): void {
    try {
      this.deps.writer.send(frame);
    } catch (err) {
      this.deps.log(describeError(err));
    }
  }

  /** Ends the run after the current turn of the event loop, so handlers that already have their
   * answer (synchronous ones, pipelined before the shutdown) still get it out. Frames arriving
   * meanwhile are ignored. */
  private finishSoon(outcome: RunOutcome): void {
    if (this.ending) return;
    this.ending = true;
    setTimeout(() => this.finish(outcome), 0);
  }

  /** Ends the run once: aborts handlers, fails outstanding calls, acks a shutdown. */
  private finish(outcome: RunOutcome): void {
    if (this.phase === "closed") return;
    this.phase = "closed";
    this.handlers.abortAll(outcome);
    this.deps.calls.close(outcome === "shutdown" ? "zot is shutting down" : "the host closed the connection");
    if (outcome === "shutdown") this.send({ type: "shutdown_ack" });
    this.deps.writer.close(); // nothing may follow the ack
    this.stopReading?.();
    this.resolveDone(outcome);
  }
}
