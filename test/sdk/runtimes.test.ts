// The SDK is runtime-agnostic: Bun and Deno import mod.ts and run the ts-scratchpad example from
// source, Node runs its bundle, and the example's launcher finds a runtime on a machine whose
// PATH has neither bun nor deno. Each is driven over stdio through the example's features.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { startDriver, type ExtDriver } from "../support/ext-driver.ts";

const root = resolve(import.meta.dirname, "..", "..");
const bin = (name: string) => join(root, "node_modules", ".bin", name);
const example = join(root, "examples", "extensions", "ts-scratchpad");
const main = join(example, "main.ts");
let scratch = "";
let bundle = "";

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "zot-runtimes-"));
  bundle = join(scratch, "main.mjs");
  execFileSync(bin("bun"), ["build", main, "--target=node", "--outfile", bundle], { stdio: "pipe" });
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// Only system directories: no bun or deno on PATH, so run.sh must find the checkout's bun.
const BARE_PATH = "/usr/local/bin:/usr/bin:/bin";

const runtimes = [
  { runtime: "Bun (main.ts)", command: () => [bin("bun"), main] },
  { runtime: "Deno (main.ts)", command: () => [bin("deno"), "run", "-A", main] },
  { runtime: "Node (bundled main.mjs)", command: () => [process.execPath, bundle] },
  { runtime: "run.sh without bun or deno on PATH", command: () => [join(example, "run.sh")], path: BARE_PATH },
];

const text = (t: string) => [{ type: "text", text: t }];
const invoke = (id: string, name: string, args = "") => ({ type: "command_invoked", id, name, args });
const display = (id: string, shown: string) => ({ type: "command_response", id, action: "display", display: shown });
const EMPTY_SCHEMA = { type: "object", properties: {} };
const WAITING = { type: "notify", level: "info", message: "The assistant is waiting for a note: type /scratch <text>" };

const REGISTRATIONS = [
  { type: "register_command", name: "scratch", description: "add a note (/scratch <text>) or list the notes (/scratch)" },
  { type: "register_command", name: "scratch-import", description: "add a file of the project as a note (/scratch-import <path>)" },
  { type: "register_command", name: "scratch-panel", description: "browse the notes in a panel" },
  { type: "register_tool", name: "scratch_read", description: "Read the user's scratchpad notes.", schema: EMPTY_SCHEMA },
  {
    type: "register_tool",
    name: "scratch_tools",
    description: "Enable the tools that change the scratchpad (scratch_write).",
    schema: EMPTY_SCHEMA,
  },
  {
    type: "register_tool",
    name: "scratch_write",
    description: "Append a note to the user's scratchpad.",
    schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    deferred: true,
  },
  {
    type: "register_tool",
    name: "scratch_wait_note",
    description: "Ask the user to add a note with /scratch and wait for it. Returns the note.",
    schema: EMPTY_SCHEMA,
    interactive: true,
  },
  { type: "subscribe", events: ["session_start"], intercept: ["before_agent_start", "tool_call"] },
  { type: "ready" },
];

describe.each(runtimes)("the ts-scratchpad example on $runtime", ({ command, path }) => {
  let d: ExtDriver;
  let dataDir = "";

  afterEach(async () => {
    await d?.close(1_000);
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function exchange(frame: object, ...expected: object[]): Promise<void> {
    d.send(frame);
    for (const want of expected) expect(await d.next(undefined, 10_000)).toEqual(want);
  }

  it("handshakes, then serves its command, tools, interceptors, event, panel and callTool", async () => {
    dataDir = mkdtempSync(join(tmpdir(), "zot-scratchpad-"));
    const [exe, ...args] = command();
    d = startDriver(exe!, args, { cwd: example, env: { ...process.env, ...(path ? { PATH: path } : {}) } });

    expect(await d.next(undefined, 10_000)).toEqual({
      type: "hello",
      name: "ts-scratchpad",
      version: "1.0.0",
      capabilities: ["commands", "tools", "events", "panels", "tool_cancel", "call_tool", "intercept_v2"],
    });
    await exchange(
      { type: "hello_ack", protocol_version: 1, cwd: "/project", data_dir: dataDir, capabilities: ["call_tool"] },
      ...REGISTRATIONS,
    );

    // Command.
    await exchange(invoke("c1", "scratch", "buy milk"), display("c1", "Noted (#1)."));
    // A loader activates the deferred tool, which then runs.
    await exchange(
      { type: "tool_call", id: "t1", name: "scratch_tools", args: {} },
      { type: "tool_result", id: "t1", content: text("scratch_write is now available."), activate_tools: ["scratch_write"] },
    );
    await exchange(
      { type: "tool_call", id: "t2", name: "scratch_write", args: { text: "from the model" } },
      { type: "tool_result", id: "t2", content: text("Saved as note #2.") },
    );

    // The interactive tool resolves with the user's next note...
    await exchange({ type: "tool_call", id: "t3", name: "scratch_wait_note", args: {} }, WAITING);
    d.send(invoke("c2", "scratch", "the answer"));
    expect(await d.next()).toEqual({ type: "clear_notes" });
    expect(await d.next((f) => f.id === "t3")).toEqual({ type: "tool_result", id: "t3", content: text("the answer") });
    expect(await d.next((f) => f.id === "c2")).toEqual(display("c2", "Noted (#3)."));
    // ...and stops waiting when cancelled, sending no result.
    await exchange({ type: "tool_call", id: "t4", name: "scratch_wait_note", args: {} }, WAITING);
    await exchange({ type: "tool_cancel", id: "t4" }, { type: "clear_notes" });

    // Interceptors.
    await exchange(
      {
        type: "event_intercept",
        id: "i1",
        event: "tool_call",
        tool_id: "x",
        tool_name: "write",
        tool_args: { path: join(dataDir, "scratchpad.json") },
      },
      {
        type: "event_intercept_response",
        id: "i1",
        block: true,
        reason: "The scratchpad file is managed by ts-scratchpad: use scratch_tools, then scratch_write.",
      },
    );
    await exchange(
      { type: "event_intercept", id: "i2", event: "before_agent_start", system_prompt: "Base." },
      {
        type: "event_intercept_response",
        id: "i2",
        system_prompt: "Base.\n\nThe user keeps a scratchpad of notes; read it with the scratch_read tool.",
      },
    );

    // Event subscription.
    await exchange(
      { type: "event", event: "session_start", session_id: "s1", cwd: "/project", sequence: 1 },
      { type: "notify", level: "info", message: "3 notes in the scratchpad (/scratch-panel)" },
    );

    // Panel with keys: move down, delete the note under the cursor.
    const footer = "↑/↓ move · x delete · esc close";
    await exchange(invoke("c3", "scratch-panel"), {
      type: "command_response",
      id: "c3",
      action: "open_panel",
      open_panel: { id: "scratchpad", title: "Scratchpad (3)", lines: ["› buy milk", "  from the model", "  the answer"], footer },
    });
    await exchange(
      { type: "panel_key", panel_id: "scratchpad", key: "down" },
      { type: "panel_render", panel_id: "scratchpad", title: "Scratchpad (3)", lines: ["  buy milk", "› from the model", "  the answer"], footer },
    );
    await exchange(
      { type: "panel_key", panel_id: "scratchpad", key: "rune", text: "x" },
      { type: "panel_render", panel_id: "scratchpad", title: "Scratchpad (2)", lines: ["  buy milk", "› the answer"], footer },
    );

    // callTool through the host's read tool.
    await exchange(invoke("c4", "scratch-import", "notes.txt"), {
      type: "call_tool",
      id: "call-1",
      name: "read",
      args: { path: "notes.txt" },
    });
    await exchange(
      { type: "tool_result", id: "call-1", name: "read", content: text("imported text"), is_error: false },
      display("c4", "Imported notes.txt as note #3."),
    );

    await exchange({ type: "shutdown" }, { type: "shutdown_ack" });
    expect(await d.exited).toEqual({ code: 0, signal: null });
    expect(d.invalidLines).toEqual([]);
    expect(d.invalidFrames).toEqual([]);
    expect(d.frames.filter((f) => f.id === "t4")).toEqual([]);
    expect(JSON.parse(readFileSync(join(dataDir, "scratchpad.json"), "utf8"))).toEqual([
      "buy milk",
      "the answer",
      "imported text",
    ]);
  });
});
