// The published schema of the json/rpc streams (mod.ts `streamSchema`) and the strict check the
// e2e tests run every printed line through.
import { describe, expect, it } from "vitest";
import { streamSchema } from "../../mod.ts";
import { withGoFields } from "../../lib/modes/event-stream.ts";
import { checkStreamLine } from "../support/stream-check.ts";

const stamp = { session_id: "s1", cwd: "/w", sequence: 3 };
const toolCall = { type: "tool_call", tool_id: "c1", tool_name: "bash", tool_args: { command: "ls" }, ...stamp } as const;

describe("The stream schema", () => {
  it("accepts what zot prints for an event, with the Go zot's fields added", () => {
    const line = withGoFields(toolCall);
    expect(streamSchema.validateStreamLine(line)).toBeUndefined();
    expect(() => checkStreamLine(JSON.stringify(line))).not.toThrow();
  });

  it("rejects a line missing a field it documents, naming the field", () => {
    expect(streamSchema.validateStreamLine(toolCall)).toMatch(/^tool_call: .*id/);
    expect(streamSchema.validateStreamLine({ type: "done", stop: "finished" })).toMatch(/^done: .*stop/);
    expect(streamSchema.validateStreamLine({ type: "assistant_message", text: "", content: [], time: "yesterday", ...stamp })).toMatch(/time/);
    expect(streamSchema.validateStreamLine({ type: "teleported" })).toMatch(/unknown event type/);
  });

  it("is loose for clients (zot may add fields) while the test check is strict, so the schema cannot drift", () => {
    const extra = { type: "text_delta", delta: "hi", shiny_new_field: 1 };
    expect(streamSchema.validateStreamLine(extra)).toBeUndefined();
    expect(() => checkStreamLine(JSON.stringify(extra))).toThrow(/shiny_new_field/);
  });

  it("the strict check also wants type as the first key", () => {
    expect(() => checkStreamLine(JSON.stringify({ delta: "hi", type: "text_delta" }))).toThrow(/does not start with its type/);
  });

  it("checks a response's data against its command, and a failure's error", () => {
    const ok = { type: "response", id: 1, command: "prompt", success: true, data: { started: true, queued: false } };
    expect(streamSchema.validateStreamLine(ok)).toBeUndefined();
    expect(streamSchema.validateStreamLine({ ...ok, data: { queued: false } })).toMatch(/response to prompt: data: .*started/);
    expect(streamSchema.validateStreamLine({ type: "response", command: null, success: false, error: "invalid JSON" })).toBeUndefined();
    expect(streamSchema.validateStreamLine({ type: "response", command: "ping", success: false })).toMatch(/error/);
  });

  it("checks command lines as zot parses them", () => {
    expect(streamSchema.validateRpcCommand(JSON.stringify({ id: "1", type: "prompt", message: "hi" }))).toBeUndefined();
    expect(streamSchema.validateRpcCommand(JSON.stringify({ type: "prompt" }))).toMatch(/message/);
    expect(streamSchema.validateRpcCommand(JSON.stringify({ type: "abort", all: "yes" }))).toMatch(/all/);
    expect(streamSchema.RPC_COMMAND_TYPES).toEqual(expect.arrayContaining(["hello", "prompt", "abort", "compact", "get_state", "set_model"]));
  });

  it("describes a schema for every command's response data", () => {
    expect(Object.keys(streamSchema.RPC_RESPONSE_DATA_SCHEMAS).sort()).toEqual([...streamSchema.RPC_COMMAND_TYPES].sort());
  });
});
