// rpc commands beyond the basics: images, models, clear, compact, prompt rebuilds after
// /reload-ext, and panels driven by panel_key. Real zot bundle, real extensions, real HTTP.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PROVIDER_NAMES } from "../../lib/providers/index.ts";
import { rpc } from "./rpc-client.ts";
import { KIT, makeWorld, ROOT, type World } from "./support.ts";

const PANEL = join(ROOT, "test", "fixtures", "e2e", "panel");
const PNG_1PX = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("rpc commands", () => {
  it("prompt with images, get_models, set_model, compact and clear", async () => {
    world = await makeWorld([{ text: "a tiny picture" }, { text: "second answer" }, { text: "SUMMARY: a picture was shown" }]);
    const c = rpc(world);

    const models = await c.call({ type: "get_models" });
    expect(models.data.models).toEqual(expect.arrayContaining([expect.objectContaining({ provider: "anthropic", id: expect.any(String) })]));
    // The current provider's models by default, every provider's with all:true; each says whether it reasons.
    expect(new Set(models.data.models.map((m: { provider: string }) => m.provider))).toEqual(new Set(["anthropic"]));
    expect(models.data.models.find((m: { id: string }) => m.id === "claude-sonnet-4-6")).toMatchObject({ context_window: expect.any(Number), max_output: expect.any(Number), reasoning: true });
    const all = await c.call({ type: "get_models", all: true });
    expect(new Set(all.data.models.map((m: { provider: string }) => m.provider))).toEqual(new Set(PROVIDER_NAMES.filter((name) => name !== "ollama")));
    expect(all.data.models.find((m: { id: string }) => m.id === "gpt-4.1")).toMatchObject({ reasoning: false });
    expect(all.data.models.find((m: { id: string }) => m.id === "o3")).toMatchObject({ reasoning: true });

    await c.call({ type: "prompt", message: "what is this?", images: [{ mime_type: "image/png", data: PNG_1PX }] });
    await c.waitFor((l) => l.type === "done");
    expect(c.lines.find((l) => l.type === "user_prompt_submit")).toMatchObject({ text: "what is this?", image_count: 1 });
    const sent = JSON.stringify(world.server.requests[0]!.body.messages);
    expect(sent).toContain(PNG_1PX);
    expect(sent).toContain("image/png");

    // The scripted server is a custom base URL: an unknown id is used as given, with a warning.
    const switched = await c.call({ type: "set_model", model: "claude-test-model" });
    expect(switched).toMatchObject({ success: true, data: { provider: "anthropic", model: "claude-test-model", warning: expect.stringContaining("not a known") } });
    await c.call({ type: "prompt", message: "and now?" });
    await c.waitFor((l) => l.type === "done" && c.lines.filter((x) => x.type === "done").length === 2);
    expect(world.server.requests[1]!.body.model).toBe("claude-test-model");
    expect(JSON.parse(readFileSync(join(world.home, "config.json"), "utf8"))).toMatchObject({ model: "claude-test-model" });

    // The reply is immediate; the compaction's events follow and end with done.
    const compacted = await c.call({ type: "compact" });
    expect(compacted).toMatchObject({ success: true, data: { started: true } });
    await c.waitFor(() => c.lines.filter((x) => x.type === "done").length === 3);
    const pre = c.lines.find((l) => l.type === "pre_compact");
    const post = c.lines.find((l) => l.type === "post_compact");
    expect(pre).toMatchObject({ message_count: 4 });
    expect(post).toMatchObject({ compaction_id: pre!.compaction_id, status: "completed" });
    expect(c.lines.at(-1)).toEqual({ type: "done", stop: "end_turn" });

    expect(await c.call({ type: "clear" })).toMatchObject({ success: true });
    expect((await c.call({ type: "get_messages" })).data.messages).toEqual([]);
    expect((await c.call({ type: "get_state" })).data).toMatchObject({ message_count: 0, model: "claude-test-model" });
    c.end();
    expect(await c.exited).toBe(0);
  });

  it("new_session and switch_session end the old conversation (session_switch) before the new one starts; /clear and set_model end nothing", async () => {
    world = await makeWorld([{ text: "first conversation" }]);
    const c = rpc(world, ["-e", KIT]);
    const first = (await c.call({ type: "get_state" })).data.session_id as string;
    await c.call({ type: "prompt", message: "remember me" });
    await c.waitFor((l) => l.type === "done");
    await c.call({ type: "clear" });
    await c.call({ type: "set_model", model: "claude-test-model" });
    expect(c.lines.filter((l) => l.type === "session_end")).toEqual([]);

    const fresh = await c.call({ type: "new_session" });
    expect(fresh).toMatchObject({ success: true, data: { session_id: expect.any(String) } });
    const second = fresh.data.session_id as string;
    expect(second).not.toBe(first);
    const boundary = () => c.lines.filter((l) => l.type === "session_end" || l.type === "session_start")
      .map((l) => [l.type, l.session_id, l.reason]);
    expect(boundary()).toEqual([["session_start", first, undefined], ["session_end", first, "session_switch"], ["session_start", second, undefined]]);
    expect((await c.call({ type: "get_messages" })).data.messages).toEqual([]);

    expect(await c.call({ type: "switch_session", session_id: first })).toMatchObject({ success: true, data: { session_id: first } });
    expect(boundary().slice(3)).toEqual([["session_end", second, "session_switch"], ["session_start", first, undefined]]);
    expect(await c.call({ type: "switch_session", session_id: "no-such-session" })).toMatchObject({ success: false, error: expect.stringMatching(/no session with id "no-such-session"/) });
    c.end();
    expect(await c.exited).toBe(0);
  });

  it("set_model refuses an id the provider's known list lacks, where that list is known", async () => {
    world = await makeWorld();
    const c = rpc(world, [], { ZOT_BASE_URL: "", ANTHROPIC_API_KEY: "sk-test" });
    expect(await c.call({ type: "set_model", model: "claude-nonexistent-1" })).toMatchObject({ success: false, error: expect.stringContaining("unknown model") });
    expect((await c.call({ type: "get_state" })).data).toMatchObject({ model: "claude-sonnet-4-6" });
    const known = await c.call({ type: "set_model", model: "claude-opus-4-7" });
    expect(known).toMatchObject({ success: true, data: { model: "claude-opus-4-7" } });
    expect(known.data).not.toHaveProperty("warning");
    expect(await c.call({ type: "command", name: "model", args: "claude-nonexistent-2" })).toMatchObject({ success: false, error: expect.stringContaining("unknown model") });
    c.end();
    expect(await c.exited).toBe(0);
  });

  it("get_messages gives each message a time, images as a byte count, and tool results also as tool_result blocks", async () => {
    world = await makeWorld([
      { tool_calls: [{ id: "toolu_9", name: "bash", args: { command: "echo out" } }], stop: "tool_use" },
      { text: "done" },
    ]);
    const c = rpc(world);
    await c.call({ type: "prompt", message: "look", images: [{ mime_type: "image/png", data: PNG_1PX }] });
    await c.waitFor((l) => l.type === "done");
    const { messages } = (await c.call({ type: "get_messages" })).data;
    expect(messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "tool_result", "assistant"]);
    for (const m of messages) expect(new Date(m.time).toISOString()).toBe(m.time);
    expect(messages[0].content).toEqual([
      { type: "text", text: "look" },
      { type: "image", mime_type: "image/png", bytes: Buffer.from(PNG_1PX, "base64").length },
    ]);
    expect(messages[1].content).toContainEqual({ type: "tool_call", id: "toolu_9", name: "bash", args: { command: "echo out" } });
    expect(messages[2]).toMatchObject({ tool_id: "toolu_9", tool_name: "bash", is_error: false });
    expect(messages[2].content.at(-1)).toEqual({
      type: "tool_result", call_id: "toolu_9", is_error: false, content: [{ type: "text", text: expect.stringContaining("out") }],
    });
    const withImages = (await c.call({ type: "get_messages", include_images: true })).data.messages;
    expect(withImages[0].content[1]).toMatchObject({ type: "image", bytes: expect.any(Number), data: PNG_1PX });
    c.end();
    expect(await c.exited).toBe(0);
  });

  it("/reload-ext restarts extensions and before_agent_start runs again from the base prompt", async () => {
    world = await makeWorld([{ text: "one" }, { text: "two" }, { text: "three" }]);
    const c = rpc(world, ["-e", KIT]);
    const system = (i: number) => JSON.stringify(world!.server.requests[i]!.body.system);
    const pidIn = (text: string) => /\[kit pid (\d+@pid:\[\d+\])\]/.exec(text)?.[1];
    const ask = async (message: string, n: number) => {
      await c.call({ type: "prompt", message });
      await c.waitFor(() => c.lines.filter((l) => l.type === "done").length === n);
    };

    await ask("first", 1);
    await ask("second", 2);
    const before = pidIn(system(0));
    expect(before).toBeDefined();
    expect(system(1)).toBe(system(0)); // stable across normal prompts

    expect(await c.call({ type: "command", name: "reload-ext" })).toMatchObject({ success: true });
    // A command ends with its own done too.
    await c.waitFor(() => c.lines.filter((l) => l.type === "done").length === 3);
    await ask("third", 4);
    const after = pidIn(system(2));
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    // Rebuilt from the unmodified base prompt, not from the last extension result.
    expect(system(2).split("[kit was here]")).toHaveLength(2);
    c.end();
    expect(await c.exited).toBe(0);
  });

  it("a panel opened by a command follows panel_key; esc closes it and tells the extension", async () => {
    world = await makeWorld();
    const c = rpc(world, ["-e", PANEL]);
    const opened = await c.call({ type: "command", name: "pick" });
    expect(opened).toMatchObject({ success: true, data: { action: "open_panel", panel: { id: "fruit", title: "Fruit picker" } } });
    expect(await c.waitFor((l) => l.type === "ext_panel_open")).toMatchObject({ extension: "panel", panel_id: "fruit" });

    expect(await c.call({ type: "panel_key", panel_id: "fruit", key: "down" })).toMatchObject({ success: true });
    const render = await c.waitFor((l) => l.type === "ext_panel_render");
    expect(render).toMatchObject({ panel_id: "fruit", lines: ["  apple", "> banana", "  cherry", "  damson"] });

    await c.call({ type: "panel_key", panel_id: "fruit", key: "rune", text: "x" });
    expect(await c.waitFor((l) => l.type === "ext_notify" && l.message === "typed x")).toMatchObject({ extension: "panel" });

    expect(await c.call({ type: "panel_key", panel_id: "fruit", key: "esc" })).toMatchObject({ success: true, data: { closed: true } });
    expect(await c.waitFor((l) => l.type === "ext_panel_close")).toMatchObject({ extension: "panel", panel_id: "fruit" });
    await c.waitFor((l) => l.type === "ext_notify" && l.message === "panel fruit closed");
    expect(await c.call({ type: "panel_key", panel_id: "fruit", key: "down" })).toMatchObject({ success: false, error: expect.stringContaining("no open panel") });
    c.end();
    expect(await c.exited).toBe(0);
  });
});
