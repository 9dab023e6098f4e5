// One `zot ext serve` connection: a freshly spawned stdio extension behind one WebSocket. Each
// stdout line becomes one text message and each text message one stdin line (the protocol is
// unchanged, only the transport). The 4 MiB frame limit holds both ways; a binary message or an
// over-long frame ends the session, as a frame error disconnects a stdio extension. The process
// exiting closes the socket; the socket closing kills the process group (SIGTERM, then SIGKILL).
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import type { WebSocket } from "ws";
import { LineDecoder } from "../../protocol/codec.ts";
import { MAX_FRAME_BYTES } from "../../protocol/limits.ts";
import { messageBytes } from "../../protocol/socket-message.ts";
import { printable } from "../../terminal-text.ts";

export interface BridgeOptions {
  /** The resolved command (resolveExec) and its arguments. */
  command: string;
  args: string[];
  dir: string;
  /** The connection's number, prefixed to each line of the extension's stderr. */
  id: number;
  /** How long a process gets after SIGTERM before SIGKILL. */
  killGraceMs: number;
  stderr: (text: string) => void;
}

export interface Bridge {
  pid: number | undefined;
  /** Kills the process group (if still running) and closes the socket; resolves once the process exited. */
  stop(): Promise<void>;
}

/** Close codes (RFC 6455): normal, unsupported data (binary), too big, internal error. */
const CLOSE_NORMAL = 1000;
const CLOSE_UNSUPPORTED = 1003;
const CLOSE_TOO_BIG = 1009;
const CLOSE_ERROR = 1011;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

/** Prefixes every complete line of `stream` with `[id] `; a final partial line is flushed at the end. */
function prefixLines(stream: Readable, id: number, write: (text: string) => void): void {
  const decoder = new LineDecoder({ keepEmptyLines: true, maxFrameBytes: Number.MAX_SAFE_INTEGER,
    onLine: (line) => write(`[${id}] ${printable(line)}\n`) });
  stream.on("data", (chunk: Buffer) => decoder.push(chunk));
  stream.on("end", () => decoder.end());
}

export function bridge(socket: WebSocket, options: BridgeOptions): Bridge {
  const { id } = options;
  const note = (text: string) => options.stderr(`[${id}] zot ext serve: ${text}\n`);
  let child: ChildProcessByStdio<Writable, Readable, Readable>;
  try {
    child = spawn(options.command, options.args, {
      cwd: options.dir, env: process.env,
      detached: true, // its own process group: the kill reaches everything it forks
      stdio: ["pipe", "pipe", "pipe"], windowsHide: true,
    });
  } catch (err) {
    note(`cannot start ${options.command}: ${(err as Error).message}`);
    socket.close(CLOSE_ERROR, "extension could not start");
    return { pid: undefined, stop: async () => {} };
  }
  const pid = child.pid;
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once("close", () => resolve()));
  let killTimer: NodeJS.Timeout | undefined;

  const closeSocket = (code: number, reason: string) => {
    if (socket.readyState === socket.CONNECTING || socket.readyState === socket.OPEN) socket.close(code, reason);
  };
  const kill = () => {
    if (exited || pid === undefined) return;
    killGroup(pid, "SIGTERM");
    killTimer ??= setTimeout(() => killGroup(pid, "SIGKILL"), options.killGraceMs);
  };
  /** Ends the session for a protocol error on either side. */
  const fail = (code: number, reason: string) => {
    note(reason);
    closeSocket(code, reason);
    kill();
  };

  child.on("error", (err) => {
    note(`cannot start ${options.command}: ${err.message}`);
    closeSocket(CLOSE_ERROR, "extension could not start");
  });
  child.stdin.on("error", () => {}); // a write after the process exited; its exit closes the socket
  prefixLines(child.stderr, id, options.stderr);

  const decoder = new LineDecoder({
    onLine: (line) => {
      if (socket.readyState === socket.OPEN) socket.send(line);
    },
    onOversize: (bytes) => fail(CLOSE_TOO_BIG, `the extension wrote a frame over ${MAX_FRAME_BYTES} bytes (${bytes} seen)`),
  });
  child.stdout.on("data", (chunk: Buffer) => decoder.push(chunk));
  child.stdout.on("end", () => decoder.end());

  // "close" waits for stdout's end, so every line it wrote has been sent before the socket closes.
  child.once("close", (code, signal) => {
    exited = true;
    if (killTimer) clearTimeout(killTimer);
    if (pid !== undefined) killGroup(pid, "SIGKILL"); // whatever it forked and left behind
    note(`extension exited (${signal ?? `code ${code}`})`);
    closeSocket(code === 0 ? CLOSE_NORMAL : CLOSE_ERROR, "extension exited");
  });

  socket.on("message", (data, isBinary) => {
    if (isBinary) return fail(CLOSE_UNSUPPORTED, "binary message: frames are text messages");
    let text = messageBytes(data).toString("utf8");
    if (text.endsWith("\n")) text = text.slice(0, text.endsWith("\r\n") ? -2 : -1);
    if (Buffer.byteLength(text) > MAX_FRAME_BYTES) return fail(CLOSE_TOO_BIG, `a message over ${MAX_FRAME_BYTES} bytes`);
    // A newline inside would split one message into several frames on stdin.
    if (text.includes("\n")) return fail(CLOSE_UNSUPPORTED, "a message holding more than one line: one frame per message");
    if (text === "") return;
    if (!exited) child.stdin.write(`${text}\n`);
  });
  socket.on("error", (err) => note(`socket error: ${err.message}`));
  socket.on("close", () => kill());

  return {
    pid,
    async stop() {
      closeSocket(CLOSE_NORMAL, "server stopping");
      kill();
      await exit;
    },
  };
}
