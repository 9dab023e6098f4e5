import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, DEFAULT_TIMEOUTS } from "../../lib/extensions/runtime/settings.ts";

// Every test shrinks these through ExtensionHostOptions; this pins the defaults to the spec's numbers.
describe("Timeouts and limits: the spec's values are the defaults", () => {
  it("timeouts", () => {
    expect(DEFAULT_TIMEOUTS).toMatchObject({
      intercept: 5_000, // event_intercept reply (before_agent_start: including the write)
      toolCall: 60_000, // non-interactive tool_call reply
      callTool: 60_000, // call_tool request
      shutdownGrace: 2_000, // shutdown → exit, then SIGTERM → exit
      write: 5_000, // bounded synchronous writes
    });
    // Not numbers of the spec, but a silent extension must never hang startup or a command.
    expect(DEFAULT_TIMEOUTS.hello).toBeGreaterThan(0);
    expect(DEFAULT_TIMEOUTS.ready).toBeGreaterThan(0);
    expect(DEFAULT_TIMEOUTS.command).toBeGreaterThan(0);
  });

  it("limits", () => {
    expect(DEFAULT_LIMITS).toEqual({ maxFrameBytes: 4 * 1024 * 1024, queueFrames: 256, queueBytes: 16 * 1024 * 1024,
      toolOutputBytes: 50 * 1024, // what the model gets of one extension or MCP tool result, as read and bash
      reconnectAttempts: 8 }); // failed WebSocket reconnects in a row before zot gives up
  });

  it("a WebSocket extension's dead peer is found within 30 s (two ping intervals), and reconnects back off to a cap", () => {
    expect(2 * DEFAULT_TIMEOUTS.ping).toBeLessThanOrEqual(30_000);
    expect(DEFAULT_TIMEOUTS.reconnect).toBeLessThan(DEFAULT_TIMEOUTS.reconnectMax);
  });
});
