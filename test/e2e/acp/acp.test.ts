// `zot acp` driven by the Agent Client Protocol SDK's client, as an editor would, against the
// scripted model server: a real zot process (the Node bundle) on the other end of stdio.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execFileSync, spawn } from "node:child_process";
import * as acp from "@agentclientprotocol/sdk";
import { KIT, makeWorld, ZOT, type World } from "../support.ts";
import { EVERYTHING } from "../../extensions/mcp/support.ts";
import { agentText, startEditor, toolUpdates, type Editor } from "./support.ts";

let world: World | undefined;
let editor: Editor | undefined;
afterEach(async () => {
  if (editor && editor.child.exitCode === null) await editor.close();
  editor = undefined;
  await world?.close();
  world = undefined;
});

async function session(e: Editor, cwd: string, mcpServers: acp.McpServer[] = []) {
  return e.agent.request("session/new", { cwd, mcpServers });
}

describe("initialize and a prompt", () => {
  it("initialize answers zot's protocol version, agent info, capabilities and auth methods", async () => {
    world = await makeWorld();
    editor = startEditor(world);
    const init = await editor.initialize();
    expect(init.protocolVersion).toBe(acp.PROTOCOL_VERSION);
    expect(init.agentInfo).toMatchObject({ name: "zot" });
    expect(init.agentCapabilities).toMatchObject({ loadSession: true, promptCapabilities: { image: true, embeddedContext: true },
      mcpCapabilities: { http: true } });
    expect(init.authMethods?.map((m) => m.id)).toEqual(["environment", "saved-key", "zot-login"]);
  });

  it("a new session streams the answer as agent_message_chunks and ends with end_turn; slash commands are announced", async () => {
    world = await makeWorld([{ text: "hello from zot", thinking: "let me think" }]);
    editor = startEditor(world);
    await editor.initialize();
    const { sessionId, modes, configOptions } = await session(editor, world.cwd);
    expect(modes?.availableModes.map((m) => m.id)).toEqual(["ask", "accept-edits", "yolo"]);
    expect(configOptions?.[0]).toMatchObject({ id: "model", category: "model", currentValue: "claude-sonnet-4-6" });
    const commands = await editor.waitFor((u) => u.sessionUpdate === "available_commands_update");
    expect((commands as acp.AvailableCommandsUpdate).availableCommands.map((c) => c.name)).toEqual(expect.arrayContaining(["help", "compact", "new"]));
    const { stopReason } = await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
    expect(stopReason).toBe("end_turn");
    expect(agentText(editor, sessionId)).toBe("hello from zot");
    expect(editor.updates.some((n) => n.update.sessionUpdate === "agent_thought_chunk")).toBe(true);
    expect(world.server.requests).toHaveLength(1);
  });

  it("an image and an embedded resource become the user message", async () => {
    world = await makeWorld([{ text: "a red dot" }]);
    editor = startEditor(world);
    await editor.initialize();
    const { sessionId } = await session(editor, world.cwd);
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    await editor.agent.request("session/prompt", { sessionId, prompt: [
      { type: "text", text: "what is this?" },
      { type: "image", mimeType: "image/png", data: png },
      { type: "resource", resource: { uri: `file://${join(world.cwd, "notes.md")}`, text: "EMBEDDED-NOTES" } },
    ] });
    const body = JSON.stringify(world.server.requests[0]!.body);
    expect(body).toContain(png);
    expect(body).toContain("EMBEDDED-NOTES");
    expect(body).toContain("what is this?");
  });
});

describe("tool calls", () => {
  it("a write and an edit stream tool_call, in_progress and completed with a diff and the file's location", async () => {
    world = await makeWorld([
      { tool_calls: [{ id: "w1", name: "write", args: { path: "a.txt", content: "one\ntwo\n" } }] },
      { tool_calls: [{ id: "e1", name: "edit", args: { path: "a.txt", old_text: "two", new_text: "TWO" } }] },
      { text: "done" },
    ]);
    editor = startEditor(world);
    await editor.initialize();
    const { sessionId } = await session(editor, world.cwd);
    expect((await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "write it" }] })).stopReason).toBe("end_turn");
    const file = join(world.cwd, "a.txt");
    const write = toolUpdates(editor, sessionId, "w1");
    expect(write[0]).toMatchObject({ sessionUpdate: "tool_call", kind: "edit", title: "Write a.txt", status: "pending", locations: [{ path: file }] });
    expect(write.map((u) => (u as acp.ToolCallUpdate).status)).toEqual(["pending", "in_progress", "completed"]);
    expect((write.at(-1) as acp.ToolCallUpdate).content?.[0]).toEqual({ type: "diff", path: file, oldText: null, newText: "one\ntwo\n" });
    const edit = toolUpdates(editor, sessionId, "e1");
    expect((edit.at(-1) as acp.ToolCallUpdate).content?.[0]).toEqual({ type: "diff", path: file, oldText: "one\ntwo\n", newText: "one\nTWO\n" });
    expect(readFileSync(file, "utf8")).toBe("one\nTWO\n");
  });

  it("a bash call is kind execute and its output is the result's content", async () => {
    world = await makeWorld([{ tool_calls: [{ id: "b1", name: "bash", args: { command: "echo from-bash" } }] }, { text: "ok" }]);
    editor = startEditor(world);
    await editor.initialize();
    const { sessionId } = await session(editor, world.cwd);
    await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "run" }] });
    const bash = toolUpdates(editor, sessionId, "b1");
    expect(bash[0]).toMatchObject({ kind: "execute", title: "echo from-bash" });
    expect(JSON.stringify(bash.at(-1))).toContain("from-bash");
    expect(bash.at(-1)).toMatchObject({ status: "completed" });
  });
});

describe("permissions", () => {
  it("in ask mode a call is asked in the editor: rejected it does not run, allowed once it does", async () => {
    world = await makeWorld([
      { tool_calls: [{ id: "t1", name: "bash", args: { command: "touch first.txt" } }] }, { text: "refused" },
      { tool_calls: [{ id: "t2", name: "bash", args: { command: "touch second.txt" } }] }, { text: "ran" },
    ]);
    editor = startEditor(world, { args: ["--no-yolo"] });
    await editor.initialize();
    const { sessionId, modes } = await session(editor, world.cwd);
    expect(modes?.currentModeId).toBe("ask");
    editor.answer = "reject_once";
    await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "one" }] });
    expect(editor.permissions[0]).toMatchObject({ sessionId, toolCall: { toolCallId: "t1", kind: "execute" } });
    expect(editor.permissions[0]!.options.map((o) => o.kind)).toEqual(["allow_once", "allow_always", "reject_once"]);
    expect(existsSync(join(world.cwd, "first.txt"))).toBe(false);
    expect(toolUpdates(editor, sessionId, "t1").at(-1)).toMatchObject({ status: "failed" });
    editor.answer = "allow_once";
    await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "two" }] });
    expect(existsSync(join(world.cwd, "second.txt"))).toBe(true);
    expect(editor.permissions).toHaveLength(2);
  });

  it("set_mode yolo stops asking and says so with current_mode_update; accept-edits asks only for what is not a file tool", async () => {
    world = await makeWorld([
      { tool_calls: [{ id: "w", name: "write", args: { path: "x.txt", content: "x" } }] }, { text: "ok" },
      { tool_calls: [{ id: "b", name: "bash", args: { command: "touch y.txt" } }] }, { text: "ok" },
    ]);
    editor = startEditor(world, { args: ["--no-yolo"] });
    await editor.initialize();
    const { sessionId } = await session(editor, world.cwd);
    await editor.agent.request("session/set_mode", { sessionId, modeId: "accept-edits" });
    await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "write" }] });
    expect(editor.permissions).toHaveLength(0);
    await editor.agent.request("session/set_mode", { sessionId, modeId: "yolo" });
    await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "bash" }] });
    expect(editor.permissions).toHaveLength(0);
    expect(existsSync(join(world.cwd, "y.txt"))).toBe(true);
    expect(editor.updates.filter((n) => n.update.sessionUpdate === "current_mode_update").map((n) => (n.update as acp.CurrentModeUpdate).currentModeId))
      .toEqual(["accept-edits", "yolo"]);
    await expect(editor.agent.request("session/set_mode", { sessionId, modeId: "nonsense" })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("unknown mode") });
  });
});

describe("cancel", () => {
  it("session/cancel in the middle of a tool stops it: the prompt ends cancelled and no process is left", async () => {
    world = await makeWorld([{ tool_calls: [{ id: "s1", name: "bash", args: { command: "sleep 31.5" } }] }]);
    editor = startEditor(world);
    await editor.initialize();
    const { sessionId } = await session(editor, world.cwd);
    const prompt = editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "wait" }] });
    await editor.waitFor((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "s1" && u.status === "in_progress");
    await editor.agent.notify("session/cancel", { sessionId });
    expect((await prompt).stopReason).toBe("cancelled");
    expect(execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })).not.toContain("sleep 31.5");
  });

  it("a permission question open when the turn is cancelled is withdrawn, and the prompt ends cancelled", async () => {
    world = await makeWorld([{ tool_calls: [{ id: "p1", name: "bash", args: { command: "touch never.txt" } }] }]);
    editor = startEditor(world, { args: ["--no-yolo"] });
    await editor.initialize();
    const { sessionId } = await session(editor, world.cwd);
    editor.answer = "hang";
    const prompt = editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "touch" }] });
    await editor.asked(1);
    await editor.agent.notify("session/cancel", { sessionId });
    expect((await prompt).stopReason).toBe("cancelled");
    expect(existsSync(join(world.cwd, "never.txt"))).toBe(false);
  });
});

describe("sessions", () => {
  it("session/load replays a saved conversation (user, agent, tool call) and continues it; session/list lists it", async () => {
    world = await makeWorld([
      { text: "first answer", tool_calls: [{ id: "r1", name: "bash", args: { command: "echo replayed" } }] }, { text: "after the tool" },
      { text: "second answer" },
    ]);
    editor = startEditor(world);
    await editor.initialize();
    const { sessionId } = await session(editor, world.cwd);
    await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "FIRST-PROMPT" }] });
    expect(await editor.close()).toBe(0);

    editor = startEditor(world);
    await editor.initialize();
    const listed = await editor.agent.request("session/list", { cwd: world.cwd });
    expect(listed.sessions.map((s) => s.sessionId)).toContain(sessionId);
    await editor.agent.request("session/load", { sessionId, cwd: world.cwd, mcpServers: [] });
    const kinds = editor.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update.sessionUpdate);
    expect(kinds.slice(0, 5)).toEqual(["user_message_chunk", "agent_message_chunk", "tool_call", "tool_call_update", "agent_message_chunk"]);
    expect(JSON.stringify(editor.updates[0])).toContain("FIRST-PROMPT");
    expect(agentText(editor, sessionId)).toBe("first answerafter the tool");
    await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "again" }] });
    expect(JSON.stringify(world.server.requests.at(-1)!.body)).toContain("FIRST-PROMPT");
    await expect(editor.agent.request("session/load", { sessionId: "nope", cwd: world.cwd, mcpServers: [] })).rejects.toThrow();
  });
});

describe("the editor's capabilities", () => {
  it("with fs offered, read sees the editor's unsaved buffer and write lands in the editor, not on disk", async () => {
    world = await makeWorld([
      { tool_calls: [{ id: "r", name: "read", args: { path: "doc.txt" } }] },
      { tool_calls: [{ id: "w", name: "write", args: { path: "doc.txt", content: "FROM-ZOT\n" } }] },
      { text: "ok" },
    ]);
    const file = join(world.cwd, "doc.txt");
    writeFileSync(file, "ON-DISK\n");
    editor = startEditor(world);
    editor.buffers.set(file, "UNSAVED-BUFFER\n");
    await editor.initialize({ fs: { readTextFile: true, writeTextFile: true } });
    const { sessionId } = await session(editor, world.cwd);
    await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
    expect(JSON.stringify(toolUpdates(editor, sessionId, "r").at(-1))).toContain("UNSAVED-BUFFER");
    expect(editor.buffers.get(file)).toBe("FROM-ZOT\n");
    expect(readFileSync(file, "utf8")).toBe("ON-DISK\n");
    expect((toolUpdates(editor, sessionId, "w").at(-1) as acp.ToolCallUpdate).content?.[0])
      .toEqual({ type: "diff", path: file, oldText: "UNSAVED-BUFFER\n", newText: "FROM-ZOT\n" });
  });

  it("an MCP server the editor names (server-everything over stdio) is loaded and its tool called by the model", async () => {
    world = await makeWorld([{ tool_calls: [{ id: "m", name: "everything_echo", args: { message: "via the editor's server" } }] }, { text: "ok" }]);
    editor = startEditor(world);
    await editor.initialize();
    const { sessionId } = await session(editor, world.cwd, [{ name: "everything", command: EVERYTHING, args: ["stdio"], env: [] }]);
    await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "echo" }] });
    expect(toolUpdates(editor, sessionId, "m").at(-1)).toMatchObject({ status: "completed" });
    expect(JSON.stringify(toolUpdates(editor, sessionId, "m").at(-1))).toContain("via the editor's server");
  });

  it("an extension's command is listed and runs from a prompt", async () => {
    world = await makeWorld();
    mkdirSync(join(world.home, "extensions"), { recursive: true });
    execFileSync("cp", ["-r", KIT, join(world.home, "extensions", "kit")]);
    editor = startEditor(world);
    await editor.initialize();
    const { sessionId } = await session(editor, world.cwd);
    const commands = await editor.waitFor((u) => u.sessionUpdate === "available_commands_update");
    expect((commands as acp.AvailableCommandsUpdate).availableCommands).toContainEqual(expect.objectContaining({ name: "Say" }));
    expect((await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/say hello there" }] })).stopReason).toBe("end_turn");
    expect(agentText(editor, sessionId)).toContain("said: hello there");
    expect(world.server.requests).toHaveLength(0);
  });
});

describe("models and extensions' output", () => {
  it("the model is a config option: set_config_option switches it and the next request uses it", async () => {
    world = await makeWorld([{ text: "one" }]);
    editor = startEditor(world);
    await editor.initialize();
    const { sessionId, configOptions } = await session(editor, world.cwd);
    const model = configOptions![0]! as { options: Array<{ value: string }> };
    const other = model.options.map((o) => o.value).find((v) => v !== "claude-sonnet-4-6")!;
    const set = await editor.agent.request("session/set_config_option", { sessionId, configId: "model", value: other });
    expect(set.configOptions[0]).toMatchObject({ currentValue: other });
    await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
    expect(world.server.requests[0]!.body.model).toBe(other);
    await expect(editor.agent.request("session/set_config_option", { sessionId, configId: "colour", value: "red" })).rejects.toMatchObject({ code: -32602 });
  });

  it("an extension's notification reaches the editor as an agent message; a panel is refused with a message naming the extension", async () => {
    world = await makeWorld();
    mkdirSync(join(world.home, "extensions"), { recursive: true });
    execFileSync("cp", ["-r", join(KIT, "..", "panel"), join(world.home, "extensions", "panel")]);
    editor = startEditor(world);
    await editor.initialize();
    const { sessionId } = await session(editor, world.cwd);
    await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/note watch out" }] });
    await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/pick" }] });
    const text = agentText(editor, sessionId);
    expect(text).toContain("[panel] careful: watch out");
    expect(text).toContain("[panel] opened a panel");
    expect(text).toContain("which the editor cannot show");
  });
});

describe("bad input", () => {
  it("malformed JSON gets a parse error on stdout, and nothing but JSON-RPC reaches stdout", async () => {
    world = await makeWorld();
    const child = spawn(process.execPath, [ZOT, "acp"], { cwd: world.cwd, env: world.env });
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stdin.write("{this is not json\n");
    child.stdin.end(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } })}\n`);
    expect(await new Promise((done) => child.on("close", done))).toBe(0);
    const lines = stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
    expect(lines[1]).toMatchObject({ jsonrpc: "2.0", id: 1, result: { protocolVersion: 1 } });
    expect(lines).toHaveLength(2);
  });

  it("an unknown method gets a JSON-RPC error; a prompt for an unknown session is an error; zot keeps serving", async () => {
    world = await makeWorld([{ text: "still here" }]);
    editor = startEditor(world);
    await editor.initialize();
    await expect(editor.agent.request("no/such_method", {})).rejects.toMatchObject({ code: -32601 });
    await expect(editor.agent.request("session/prompt", { sessionId: "missing", prompt: [{ type: "text", text: "x" }] })).rejects.toThrow();
    const { sessionId } = await session(editor, world.cwd);
    expect((await editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] })).stopReason).toBe("end_turn");
  });

  it("an editor that goes away mid-turn ends zot with no process left and the session file intact", async () => {
    world = await makeWorld([{ tool_calls: [{ id: "g", name: "bash", args: { command: "sleep 32.5" } }] }]);
    editor = startEditor(world);
    await editor.initialize();
    const { sessionId } = await session(editor, world.cwd);
    void editor.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "wait" }] }).catch(() => {});
    await editor.waitFor((u) => u.sessionUpdate === "tool_call_update" && u.status === "in_progress");
    expect(await editor.close()).toBe(0);
    expect(execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })).not.toContain("sleep 32.5");
    const sessionsDir = join(world.home, "sessions");
    const files = execFileSync("find", [sessionsDir, "-name", `${sessionId}.jsonl`], { encoding: "utf8" }).trim().split("\n");
    const lines = readFileSync(files[0]!, "utf8").trim().split("\n");
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });
});
