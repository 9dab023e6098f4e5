// One zot session of an extension: its writer, its outstanding call_tool requests, the host it
// greeted and the one-way frames held until its `ready`. `run()` has one; `serve()` one per
// connection. Handlers run inside their session (AsyncLocalStorage), so `ext.notify` or
// `ext.callTool` from a handler reaches the zot that invoked it.
import { AsyncLocalStorage } from "node:async_hooks";

import { CallToolClient } from "./call-tool.ts";
import type { HostInfo } from "./types.ts";
import { FrameWriter, type OutboundFrame, type WritableLike } from "./writer.ts";

export const currentSession = new AsyncLocalStorage<Session>();

export class Session {
  readonly writer: FrameWriter;
  readonly calls: CallToolClient;
  /** From `hello_ack`; undefined until it arrives. */
  host: HostInfo | undefined;
  phase: "handshake" | "ready" | "done" = "handshake";

  constructor(
    stream: WritableLike,
    log: (message: string) => void,
    callToolTimeoutMs: number | undefined,
    /** One-way frames to send once this session is ready. */
    private held: OutboundFrame[],
  ) {
    this.writer = new FrameWriter(stream, log);
    this.calls = new CallToolClient({ send: (frame) => this.writer.send(frame), defaultTimeoutMs: callToolTimeoutMs });
  }

  get ready(): boolean {
    return this.phase === "ready";
  }

  /** Runs `fn` (and everything it starts) as this session. */
  enter<T>(fn: () => T): T {
    return currentSession.run(this, fn);
  }

  /** Sends `frame` now if the session is past its handshake, else at `ready`. */
  oneWay(frame: OutboundFrame): void {
    if (this.phase === "handshake") this.held.push(frame);
    else this.writer.send(frame);
  }

  /** `ready` was sent: held frames follow it. */
  release(): void {
    this.phase = "ready";
    for (const frame of this.held.splice(0)) this.writer.send(frame);
  }

  end(): void {
    this.phase = "done";
    this.held = [];
  }
}
