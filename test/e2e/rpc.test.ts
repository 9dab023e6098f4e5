import { afterEach, describe, expect, it } from "vitest";
import { rpc } from "./rpc-client.ts";
import { KIT, makeWorld, requestText, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("rpc mode", () => {
  it("answers commands with correlated responses and streams events", async () => {
    world = await makeWorld([{ text: "rpc answer" }]);
    const c = rpc(world, ["-e", KIT]);
    expect(await c.call({ type: "ping" })).toEqual({ type: "response", id: "r1", command: "ping", success: true, data: { pong: true } });
    const commands = await c.call({ type: "get_commands" });
    expect(commands.data.commands.map((x: { name: string }) => x.name)).toEqual(expect.arrayContaining(["help", "Say", "ask"]));
    const tools = await c.call({ type: "get_tools" });
    expect(tools.data.tools.map((x: { name: string }) => x.name)).toEqual(expect.arrayContaining(["read", "bash", "weather"]));
    expect((await c.call({ type: "prompt", message: "hello" })).success).toBe(true);
    await c.waitFor((l) => l.type === "done");
    expect(c.lines.filter((l) => l.type === "text_delta").map((l) => l.delta).join("")).toBe("rpc answer");
    const messages = await c.call({ type: "get_messages" });
    expect(messages.data.messages).toHaveLength(2);
    const state = await c.call({ type: "get_state" });
    expect(state.data).toMatchObject({ running: false, message_count: 2, extensions: [{ name: "kit", status: "ok" }] });
    c.end();
    expect(await c.exited).toBe(0);
    expect(c.lines[0]).toMatchObject({ type: "session" });
    expect(c.lines.some((l) => l.type === "session_start")).toBe(true);
    expect(c.lines.at(-1)).toMatchObject({ type: "session_end", reason: "shutdown" });
  });

  it("runs slash commands and reports unknown commands and bad input as errors", async () => {
    world = await makeWorld();
    const c = rpc(world, ["-e", KIT]);
    const said = await c.call({ type: "command", name: "say", args: "hi" });
    expect(said).toMatchObject({ success: true, data: { action: "display", text: "said: hi" } });
    expect(c.lines).toContainEqual({ type: "ext_display", extension: "kit", text: "said: hi" });
    expect(await c.call({ type: "command", name: "nope" })).toMatchObject({ success: false, error: expect.stringContaining("unknown command") });
    expect(await c.call({ type: "teleport" })).toMatchObject({ success: false, error: expect.stringContaining("unknown command \"teleport\"") });
    expect(await c.call({ type: "set_model" })).toMatchObject({ success: false, error: expect.stringContaining("model") });
    c.send({ type: "ping" });
    c.end();
    expect(await c.exited).toBe(0);
  });

  it("queues a second prompt behind the first and EOF finishes in-flight work", async () => {
    world = await makeWorld([{ text: "one", chunk_delay_ms: 50 }, { text: "two" }]);
    const c = rpc(world);
    await c.call({ type: "prompt", message: "first" });
    const second = await c.call({ type: "prompt", message: "second" });
    expect(second.data).toEqual({ started: false, queued: true });
    c.end();
    expect(await c.exited).toBe(0);
    expect(c.lines.filter((l) => l.type === "done")).toHaveLength(2);
    expect(world.server.requests).toHaveLength(2);
  });

  it("a prompt that starts now is acknowledged with started:true, and get_state says busy meanwhile", async () => {
    world = await makeWorld([{ text: "hanging for a while", hang_after: 1 }]);
    const c = rpc(world);
    expect((await c.call({ type: "get_state" })).data).toMatchObject({ busy: false });
    expect((await c.call({ type: "prompt", message: "long" })).data).toEqual({ started: true, queued: false });
    expect((await c.call({ type: "get_state" })).data).toMatchObject({ busy: true, running: true });
    await c.call({ type: "abort" });
    await c.waitFor((l) => l.type === "done");
    expect((await c.call({ type: "get_state" })).data).toMatchObject({ busy: false });
    c.end();
    expect(await c.exited).toBe(0);
  });

  it("abort cancels only the running prompt: its turn_end and done come first, then the queued prompt runs", async () => {
    world = await makeWorld([{ text: "hanging for a while", hang_after: 1 }, { text: "second answer" }]);
    const c = rpc(world);
    await c.call({ type: "prompt", message: "first" });
    await c.waitFor((l) => l.type === "text_delta");
    expect((await c.call({ type: "prompt", message: "second" })).data).toEqual({ started: false, queued: true });
    expect(await c.call({ type: "abort" })).toMatchObject({ success: true, data: { withdrawn: [] } });
    await c.waitFor(() => c.lines.filter((l) => l.type === "done").length === 2);
    const abortedAt = c.lines.findIndex((l) => l.type === "turn_end" && l.stop === "aborted");
    const firstDone = c.lines.findIndex((l) => l.type === "done");
    const secondStarts = c.lines.findIndex((l) => l.type === "user_message" && l.content[0].text === "second");
    expect(abortedAt).toBeGreaterThan(-1);
    expect(abortedAt).toBeLessThan(firstDone);
    expect(firstDone).toBeLessThan(secondStarts);
    expect(c.lines.filter((l) => l.type === "done").map((l) => l.stop)).toEqual(["aborted", "end_turn"]);
    expect(world.server.requests).toHaveLength(2);
    c.end();
    expect(await c.exited).toBe(0);
  });

  it("abort {all:true} also withdraws the queued prompts, each with its done after the running one's", async () => {
    world = await makeWorld([{ text: "hanging for a while", hang_after: 1 }]);
    const c = rpc(world);
    await c.call({ type: "prompt", message: "first" });
    await c.waitFor((l) => l.type === "text_delta");
    await c.call({ type: "prompt", message: "second" });
    await c.call({ type: "prompt", message: "third" });
    expect(await c.call({ type: "abort", all: true })).toMatchObject({ success: true, data: { withdrawn: ["second", "third"] } });
    await c.waitFor(() => c.lines.filter((l) => l.type === "done").length === 3);
    const dones = c.lines.filter((l) => l.type === "done");
    expect(dones[0]).toEqual({ type: "done", stop: "aborted" });
    expect(dones.slice(1)).toEqual([
      { type: "done", stop: "aborted", error: expect.stringContaining("withdrawn") },
      { type: "done", stop: "aborted", error: expect.stringContaining("withdrawn") },
    ]);
    expect(world.server.requests).toHaveLength(1);
    c.end();
    expect(await c.exited).toBe(0);
  });

  it("abort cancels the running prompt", async () => {
    world = await makeWorld([{ text: "a b c d e f g h i j k l", chunk_delay_ms: 300 }]);
    const c = rpc(world);
    await c.call({ type: "prompt", message: "long" });
    await c.waitFor((l) => l.type === "text_delta");
    expect((await c.call({ type: "abort" })).success).toBe(true);
    expect(await c.waitFor((l) => l.type === "done")).toMatchObject({ stop: "aborted" });
    c.end();
    expect(await c.exited).toBe(0);
  });

  it("clear while a prompt runs is refused at once, and a later abort still gets through", async () => {
    world = await makeWorld([{ text: "hanging for a while", hang_after: 1 }]);
    const c = rpc(world);
    await c.call({ type: "prompt", message: "long" });
    await c.waitFor((l) => l.type === "text_delta");
    expect(await c.call({ type: "clear" })).toMatchObject({ success: false, error: expect.stringContaining("busy") });
    expect((await c.call({ type: "abort" })).success).toBe(true);
    expect(await c.waitFor((l) => l.type === "done")).toMatchObject({ stop: "aborted" });
    expect(await c.call({ type: "clear" })).toMatchObject({ success: true });
    c.end();
    expect(await c.exited).toBe(0);
  });

  it("set_model switches the model, or the provider with provider/model, and saves the choice", async () => {
    world = await makeWorld([{ text: "from openai" }]);
    const c = rpc(world);
    expect(await c.call({ type: "set_model", model: "claude-opus-4-7" })).toMatchObject({ success: true, data: { provider: "anthropic", model: "claude-opus-4-7" } });
    expect(await c.call({ type: "set_model", model: "openai/gpt-4.1" })).toMatchObject({ success: true, data: { provider: "openai", model: "gpt-4.1" } });
    await c.call({ type: "prompt", message: "hi" });
    await c.waitFor((l) => l.type === "done");
    expect(world.server.requests[0]!.wire).toBe("openai");
    c.end();
    expect(await c.exited).toBe(0);
    const { readFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    expect(JSON.parse(readFileSync(join(world.home, "config.json"), "utf8"))).toMatchObject({ provider: "openai", model: "gpt-4.1" });
  });

  it("commands sent back to back are answered in order, each reply reflecting the commands before it", async () => {
    world = await makeWorld();
    const c = rpc(world);
    c.send({ id: 1, type: "set_model", model: "claude-opus-4-7" });
    c.send({ id: 2, type: "set_model", model: "claude-haiku-4-5" });
    c.send({ id: 3, type: "get_state" });
    c.send({ id: "4", type: "ping" });
    await c.waitFor((l) => l.type === "response" && l.id === "4");
    const responses = c.lines.filter((l) => l.type === "response");
    expect(responses.map((r) => r.id)).toEqual([1, 2, 3, "4"]);
    expect(responses[0]).toMatchObject({ success: true, data: { model: "claude-opus-4-7" } });
    expect(responses[1]).toMatchObject({ success: true, data: { model: "claude-haiku-4-5" } });
    expect(responses[2]).toMatchObject({ success: true, data: { model: "claude-haiku-4-5" } });
    c.end();
    expect(await c.exited).toBe(0);
  });

  it("a prompt that starts with / goes to the model, and ends with done", async () => {
    world = await makeWorld([{ text: "install a shell" }]);
    const c = rpc(world, ["-e", KIT]);
    expect(await c.call({ type: "prompt", message: "/bin/sh is missing, why?" })).toMatchObject({ success: true });
    expect(await c.waitFor((l) => l.type === "done")).toEqual({ type: "done", stop: "end_turn" });
    expect(requestText(world.server.requests[0]!.body)).toContain("/bin/sh is missing, why?");
    // Even a registered command's name is model input in a prompt: commands have `command`.
    world.server.push({ text: "not a command here" });
    await c.call({ type: "prompt", message: "/say hi" });
    await c.waitFor(() => c.lines.filter((l) => l.type === "done").length === 2);
    expect(requestText(world.server.requests[1]!.body)).toContain("/say hi");
    expect(c.lines.some((l) => l.type === "ext_display")).toBe(false);
    c.end();
    expect(await c.exited).toBe(0);
  });

  it("every command ends with one done: an answered one, a failed one and a malformed one", async () => {
    world = await makeWorld();
    const c = rpc(world, ["-e", KIT]);
    const dones = () => c.lines.filter((l) => l.type === "done");
    await c.call({ type: "command", name: "say", args: "hi" });
    await c.waitFor(() => dones().length === 1);
    const failed = await c.call({ type: "command", name: "nope" });
    expect(failed).toMatchObject({ success: false, error: expect.stringContaining("unknown command /nope") });
    await c.waitFor(() => dones().length === 2);
    expect(await c.call({ type: "prompt" })).toMatchObject({ success: false, error: expect.stringContaining("message") });
    await c.waitFor(() => dones().length === 3);
    expect(dones()).toEqual([
      { type: "done", stop: "end_turn" },
      { type: "done", stop: "error", error: expect.stringContaining("unknown command /nope") },
      { type: "done", stop: "error", error: expect.stringContaining("message") },
    ]);
    // Each failure is announced by an error event right before its done.
    const failures = c.lines.flatMap((l, i) => (l.type === "done" && l.stop === "error" ? [c.lines[i - 1]] : []));
    expect(failures).toEqual([
      { type: "error", message: expect.stringContaining("unknown command /nope") },
      { type: "error", message: expect.stringContaining("message") },
    ]);
    // The done follows the response it belongs to.
    const sayDone = c.lines.findIndex((l) => l.type === "done");
    expect(c.lines.findIndex((l) => l.type === "response" && l.command === "command")).toBeLessThan(sayDone);
    c.end();
    expect(await c.exited).toBe(0);
  });

  it("a provider error emits error with the message right before done", async () => {
    world = await makeWorld([{ type: "error", status: 400, message: "prompt is too long" }]);
    const c = rpc(world);
    await c.call({ type: "prompt", message: "hi" });
    const done = await c.waitFor((l) => l.type === "done");
    expect(done).toMatchObject({ stop: "error", error: expect.stringContaining("prompt is too long") });
    const at = c.lines.indexOf(done);
    expect(c.lines[at - 1]).toEqual({ type: "error", message: done.error });
    c.end();
    expect(await c.exited).toBe(0);
  });

  it("hello answers the protocol version, zot's version, provider and model", async () => {
    world = await makeWorld();
    const c = rpc(world);
    const hello = await c.call({ type: "hello" });
    expect(hello.data).toMatchObject({ protocol_version: 1, version: expect.any(String), provider: "anthropic", model: "claude-sonnet-4-6", session_id: expect.any(String) });
    c.end();
    expect(await c.exited).toBe(0);
  });

  it("ZOTCORE_RPC_TOKEN is another name for ZOT_RPC_TOKEN; two different tokens refuse to start", async () => {
    world = await makeWorld();
    const go = rpc(world, [], { ZOTCORE_RPC_TOKEN: "s3cret" });
    expect(await go.call({ type: "hello", token: "s3cret" })).toMatchObject({ success: true });
    go.end();
    expect(await go.exited).toBe(0);

    const same = rpc(world, [], { ZOTCORE_RPC_TOKEN: "s3cret", ZOT_RPC_TOKEN: "s3cret" });
    expect(await same.call({ type: "hello", token: "s3cret" })).toMatchObject({ success: true });
    same.end();
    expect(await same.exited).toBe(0);

    const missing = rpc(world, [], { ZOTCORE_RPC_TOKEN: "s3cret" });
    expect(await missing.call({ type: "hello" })).toMatchObject({ success: false, error: expect.stringContaining("token") });
    expect(await missing.exited).toBe(1);

    const both = rpc(world, [], { ZOTCORE_RPC_TOKEN: "one", ZOT_RPC_TOKEN: "two" });
    expect(await both.exited).toBe(2);
    expect(both.stderr()).toMatch(/ZOT_RPC_TOKEN and ZOTCORE_RPC_TOKEN are both set and differ/);
    expect(both.lines).toEqual([]);
  });

  it("malformed lines and unknown commands answer success:false with a reason, and the process goes on", async () => {
    world = await makeWorld();
    const c = rpc(world);
    c.raw("this is not json\n");
    c.raw("[1,2]\n");
    c.send({ id: 7, type: "teleport" });
    c.send({ id: 8, type: "ping" });
    await c.waitFor((l) => l.type === "response" && l.id === 8);
    const responses = c.lines.filter((l) => l.type === "response");
    expect(responses).toEqual([
      { type: "response", command: null, success: false, error: expect.stringContaining("invalid JSON") },
      { type: "response", command: null, success: false, error: expect.stringContaining("JSON object") },
      { type: "response", id: 7, command: "teleport", success: false, error: expect.stringContaining("unknown command") },
      { type: "response", id: 8, command: "ping", success: true, data: { pong: true } },
    ]);
    c.end();
    expect(await c.exited).toBe(0);
  });

  it("with ZOT_RPC_TOKEN, hello with the token is required first", async () => {
    world = await makeWorld();
    const good = rpc(world, [], { ZOT_RPC_TOKEN: "s3cret" });
    expect(await good.call({ type: "hello", token: "s3cret" })).toMatchObject({ success: true });
    expect(await good.call({ type: "ping" })).toMatchObject({ success: true });
    good.end();
    expect(await good.exited).toBe(0);

    const bad = rpc(world, [], { ZOT_RPC_TOKEN: "s3cret" });
    expect(await bad.call({ type: "hello", token: "guess" })).toMatchObject({ success: false, error: "wrong token" });
    expect(await bad.exited).toBe(1);
    expect(bad.lines.some((l) => l.type === "session")).toBe(false);

    const skipped = rpc(world, [], { ZOT_RPC_TOKEN: "s3cret" });
    expect(await skipped.call({ type: "ping" })).toMatchObject({ success: false });
    expect(await skipped.exited).toBe(1);
  });
});
