// One `zot ext serve` connection: a freshly started stdio extension behind one WebSocket, started
// exactly as zot's host starts it (spawnExtension with the host's isolation: its declared
// permissions in the OS sandbox, or a PID namespace of its own; the environment filter; stderr to
// its log). Each stdout line becomes one text message and each text message one stdin line (the
// protocol is unchanged, only the transport). The 4 MiB frame limit holds both ways; a binary
// message or an over-long frame ends the session. The process exiting closes the socket; the
// socket closing stops the process and everything it started.
import type { WebSocket } from "ws";
import { LineDecoder } from "../../protocol/codec.ts";
import { MAX_FRAME_BYTES } from "../../protocol/limits.ts";
import { messageBytes } from "../../protocol/socket-message.ts";
import { describeExit, spawnExtension, type SpawnRequest } from "../../extensions/runtime/spawn.ts";

export interface BridgeOptions {
  /** What to start, as the host would (isolation included). */
  spawn: SpawnRequest;
  /** The connection's number, in every note. */
  id: number;
  /** How long a process gets after SIGTERM before SIGKILL. */
  killGraceMs: number;
  stderr: (text: string) => void;
}

export interface Bridge {
  pid: number | undefined;
  /** Stops the process (and what it started) and closes the socket; resolves once it is gone. */
  stop(): Promise<void>;
}

/** Close codes (RFC 6455): normal, unsupported data (binary), too big, internal error. */
const CLOSE_NORMAL = 1000;
const CLOSE_UNSUPPORTED = 1003;
const CLOSE_TOO_BIG = 1009;
const CLOSE_ERROR = 1011;

export function bridge(socket: WebSocket, options: BridgeOptions): Bridge {
  const { id } = options;
  const note = (text: string) => options.stderr(`[${id}] zot ext serve: ${text}\n`);
  let proc: ReturnType<typeof spawnExtension>;
  try {
    proc = spawnExtension(options.spawn);
  } catch (err) {
    note(`cannot start ${options.spawn.name}: ${(err as Error).message}`);
    socket.close(CLOSE_ERROR, "extension could not start");
    return { pid: undefined, stop: async () => {} };
  }
  let exited = false;
  let stopping: Promise<void> | undefined;

  const closeSocket = (code: number, reason: string) => {
    if (socket.readyState === socket.CONNECTING || socket.readyState === socket.OPEN) socket.close(code, reason);
  };
  /** Stops the process and whatever it started, also what left its process group. */
  const stop = () => (stopping ??= (async () => {
    proc.rememberDescendants();
    if (!exited) await proc.terminate(options.killGraceMs, () => note("did not stop after SIGTERM: SIGKILL"));
    proc.stopEscapees();
    await proc.treeGone();
    await proc.exited;
    proc.dispose();
  })());
  /** Ends the session for a protocol error on either side. */
  const fail = (code: number, reason: string) => {
    note(reason);
    closeSocket(code, reason);
    void stop();
  };

  proc.stdin.on("error", () => {}); // a write after the process exited; its exit closes the socket
  const decoder = new LineDecoder({
    onLine: (line) => {
      if (socket.readyState === socket.OPEN) socket.send(line);
    },
    onOversize: (bytes) => fail(CLOSE_TOO_BIG, `the extension wrote a frame over ${MAX_FRAME_BYTES} bytes (${bytes} seen)`),
  });
  proc.stdout.on("data", (chunk: Buffer) => decoder.push(chunk));
  proc.stdout.on("end", () => decoder.end());

  // `exited` settles after stdout's end, so every line it wrote has been sent before the socket closes.
  void proc.exited.then((status) => {
    exited = true;
    note(`extension ${describeExit(status)}`);
    closeSocket(status.code === 0 ? CLOSE_NORMAL : CLOSE_ERROR, "extension exited");
    void stop();
  });

  socket.on("message", (data, isBinary) => {
    if (isBinary) return fail(CLOSE_UNSUPPORTED, "binary message: frames are text messages");
    let text = messageBytes(data).toString("utf8");
    if (text.endsWith("\n")) text = text.slice(0, text.endsWith("\r\n") ? -2 : -1);
    if (Buffer.byteLength(text) > MAX_FRAME_BYTES) return fail(CLOSE_TOO_BIG, `a message over ${MAX_FRAME_BYTES} bytes`);
    // A newline inside would split one message into several frames on stdin.
    if (text.includes("\n")) return fail(CLOSE_UNSUPPORTED, "a message holding more than one line: one frame per message");
    if (text === "") return;
    if (!exited) proc.stdin.write(`${text}\n`);
  });
  socket.on("error", (err) => note(`socket error: ${err.message}`));
  socket.on("close", () => void stop());

  return {
    pid: proc.pid,
    async stop() {
      closeSocket(CLOSE_NORMAL, "server stopping");
      await stop();
    },
  };
}
