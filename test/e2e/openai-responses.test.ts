// The real bundle on OpenAI's Responses API (forced with ZOT_OPENAI_API, since the scripted
// server is not OpenAI's own host): a tool round trip whose second request carries the first
// response's encrypted reasoning item, and the same item sent again after --resume.
import { afterEach, describe, expect, it } from "vitest";
import { jsonLines, makeWorld, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const reasoningItem = { type: "reasoning", id: "rs_e2e", encrypted_content: "ENC-E2E", summary: [{ type: "summary_text", text: "List the files first" }] };

describe("json mode on the Responses API", () => {
  it("a tool round trip sends the encrypted reasoning item back, in order, and again after --resume", async () => {
    world = await makeWorld([
      { thinking: "List the files first", reasoning_id: "rs_e2e", encrypted_reasoning: "ENC-E2E",
        tool_calls: [{ id: "call_e2e", name: "bash", args: { command: "echo hi" } }] },
      { text: "It printed hi." },
      { text: "Still here." },
    ], "openai");
    const env = { ZOT_OPENAI_API: "responses", ZOT_MODEL: "gpt-5.4" };
    const r = await world.run(["--json", "--reasoning", "medium", "run echo"], { env });
    expect(r.code, r.stderr).toBe(0);
    const events = jsonLines(r.stdout);
    expect(events.filter((e) => e.type === "thinking_delta").map((e) => e.delta).join("")).toBe("List the files first");
    expect(events.at(-1)).toEqual({ type: "done", stop: "end_turn" });

    const [first, second] = world.server.requests;
    expect(first.path).toBe("/v1/responses");
    expect(first.body).toMatchObject({ store: false, include: ["reasoning.encrypted_content"], reasoning: { effort: "medium", summary: "auto" } });
    const input = second.body.input;
    const at = input.findIndex((item: any) => item.type === "reasoning");
    expect(input[at]).toEqual(reasoningItem);
    expect(input[at + 1]).toMatchObject({ type: "function_call", call_id: "call_e2e", name: "bash" });
    expect(input[at + 2]).toMatchObject({ type: "function_call_output", call_id: "call_e2e" });

    const id = events[0].session_id as string;
    const resumed = await world.run(["--json", "--resume", id, "and now?"], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const third = world.server.requests[2].body.input;
    expect(third.filter((item: any) => item.type === "reasoning")).toEqual([reasoningItem]);
    expect(third.at(-1)).toEqual({ role: "user", content: [{ type: "input_text", text: "and now?" }] });
  });
});
