// The py-notes example extension, launched as the host launches it (its manifest's exec, from
// its own folder) and driven over stdio. Its notes live in a temporary data_dir.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ExtDriver, type Frame, startDriver } from "../support/ext-driver.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const EXAMPLE = join(ROOT, "examples", "extensions", "py-notes");
const FOOTER = "up/down move - x delete - enter work on it - esc close";
const PICK_FOOTER = "enter choose - esc dismiss";
// Most tests run main.py with the real interpreter and -S (fast, and proves no site-packages are
// needed); the first and last test launch the manifest's exec through its shebang, as zot does.
const PYTHON = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();

let dataDir = "";
let drivers: ExtDriver[] = [];
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "py-notes-"));
});
afterEach(async () => {
  for (const d of drivers.splice(0)) {
    await d.close();
    expect(d.invalidLines).toEqual([]);
    expect(d.invalidFrames).toEqual([]);
  }
  rmSync(dataDir, { recursive: true, force: true });
});

function spawnNotes(dir = EXAMPLE, viaManifest = false): ExtDriver {
  const manifest = JSON.parse(readFileSync(join(EXAMPLE, "extension.json"), "utf8")) as { exec: string };
  const [command, args] = viaManifest ? [manifest.exec, []] : [PYTHON, ["-S", "main.py"]];
  const d = startDriver(command, args, { cwd: dir, env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } });
  drivers.push(d);
  return d;
}

async function startNotes(notes?: string[], viaManifest = false): Promise<ExtDriver> {
  if (notes) writeFileSync(join(dataDir, "notes.json"), JSON.stringify(notes));
  const d = spawnNotes(EXAMPLE, viaManifest);
  await d.next((f) => f.type === "hello");
  d.send({ type: "hello_ack", protocol_version: 1, cwd: "/proj", extension_dir: EXAMPLE, data_dir: dataDir, capabilities: [] });
  await d.next((f) => f.type === "ready");
  return d;
}

const ofType = (d: ExtDriver, type: string) => d.next((f) => f.type === type);
function request(d: ExtDriver, frame: { id: string; [field: string]: unknown }): Promise<Frame> {
  d.send(frame);
  return d.next((f) => f.id === frame.id);
}
const command = (d: ExtDriver, id: string, name: string, args = "") =>
  request(d, { type: "command_invoked", id, name, args });
const tool = (d: ExtDriver, id: string, name: string, args: object = {}) => request(d, { type: "tool_call", id, name, args });
const intercept = (d: ExtDriver, id: string, event: string, payload: object) =>
  request(d, { type: "event_intercept", id, event, ...payload });
const key = (d: ExtDriver, panel_id: string, k: string, text?: string) => d.send({ type: "panel_key", panel_id, key: k, text });
const render = (panel_id: string, title: string, lines: string[], footer: string) =>
  ({ type: "panel_render", panel_id, title, lines, footer });
const text = (id: string, body: string, extra: object = {}) => ({ type: "tool_result", id, content: [{ type: "text", text: body }], ...extra });

describe("py-notes example", () => {
  it("announces its commands, tools, guards and subscription", async () => {
    const d = await startNotes(undefined, true);
    expect(d.frames.map((f) => [f.type, f.name ?? f.events ?? ""])).toEqual([
      ["hello", "py-notes"], ["register_command", "note"], ["register_command", "notes"],
      ["register_tool", "add_note"], ["register_tool", "list_notes"], ["register_tool", "pick_note"],
      ["subscribe", ["session_start"]], ["ready", ""],
    ]);
    expect(d.frames[0]!.capabilities).toEqual(["commands", "tools", "events", "panels", "tool_cancel", "call_tool", "intercept_v2"]);
    expect(d.frames[6]).toEqual({ type: "subscribe", events: ["session_start"], intercept: ["before_agent_start", "tool_call", "assistant_message"] });
  });

  it("saves notes in data_dir and browses them in a panel: move, delete, close, work on one", async () => {
    const d = await startNotes();
    expect(await command(d, "c1", "note")).toEqual({ type: "command_response", id: "c1", action: "noop", error: "usage: /note <text>" });
    expect(await command(d, "c2", "note", "buy milk")).toEqual({ type: "command_response", id: "c2", action: "display", display: "Saved note #1: buy milk" });
    await command(d, "c3", "note", "call mom");
    expect(JSON.parse(readFileSync(join(dataDir, "notes.json"), "utf8"))).toEqual(["buy milk", "call mom"]);

    expect(await command(d, "c4", "notes")).toEqual({
      type: "command_response", id: "c4", action: "open_panel",
      open_panel: { id: "py-notes", title: "Notes", lines: ["> buy milk", "  call mom"], footer: FOOTER },
    });
    key(d, "py-notes", "down");
    expect(await ofType(d, "panel_render")).toEqual(render("py-notes", "Notes", ["  buy milk", "> call mom"], FOOTER));
    key(d, "py-notes", "rune", "x");
    expect(await ofType(d, "notify")).toEqual({ type: "notify", level: "success", message: "Deleted: call mom" });
    expect(await ofType(d, "panel_render")).toEqual(render("py-notes", "Notes", ["> buy milk"], FOOTER));
    d.send({ type: "panel_close", panel_id: "py-notes" });
    expect(await ofType(d, "clear_notes")).toEqual({ type: "clear_notes" });

    await command(d, "c5", "notes");
    key(d, "py-notes", "enter");
    expect(await ofType(d, "panel_close")).toEqual({ type: "panel_close", panel_id: "py-notes" });
    expect(await ofType(d, "submit")).toEqual({ type: "submit", text: "Help me with this note: buy milk" });
  });

  it("/notes review hands the notes file to the model through tool_prompt", async () => {
    const d = await startNotes();
    expect(await command(d, "c1", "notes", "review")).toEqual({
      type: "command_response", id: "c1", action: "tool_prompt", prompt: "Review my notes and suggest what to do first.",
      tool_name: "read", tool_args: { path: join(dataDir, "notes.json") },
    });
  });

  it("add_note activates the deferred list_notes tool", async () => {
    const d = await startNotes();
    expect(await tool(d, "t1", "add_note", { text: " water plants " }))
      .toEqual(text("t1", "Saved note #1", { activate_tools: ["list_notes"] }));
    expect(await tool(d, "t2", "add_note", {})).toEqual(text("t2", 'add_note needs {"text": "<the note>"}', { is_error: true }));
    expect(await tool(d, "t3", "list_notes")).toEqual(text("t3", "1. water plants"));
  });

  it("pick_note waits for the user's choice in its own panel", async () => {
    const d = await startNotes(["a", "b"]);
    d.send({ type: "tool_call", id: "t1", name: "pick_note", args: { question: "Which?" } });
    expect(await ofType(d, "panel_render")).toEqual(render("pick-t1", "Which?", ["> a", "  b"], PICK_FOOTER));
    key(d, "pick-t1", "down");
    expect(await ofType(d, "panel_render")).toEqual(render("pick-t1", "Which?", ["  a", "> b"], PICK_FOOTER));
    key(d, "pick-t1", "enter");
    expect(await ofType(d, "panel_close")).toEqual({ type: "panel_close", panel_id: "pick-t1" });
    expect(await d.next((f) => f.id === "t1")).toEqual(text("t1", "b"));
  });

  it("pick_note closes its panel when cancelled and reports a dismissal by the user", async () => {
    const d = await startNotes(["a"]);
    d.send({ type: "tool_call", id: "t1", name: "pick_note", args: {} });
    await ofType(d, "panel_render");
    d.send({ type: "tool_cancel", id: "t1" });
    expect(await ofType(d, "panel_close")).toEqual({ type: "panel_close", panel_id: "pick-t1" });

    d.send({ type: "tool_call", id: "t2", name: "pick_note", args: {} });
    expect(await ofType(d, "panel_render")).toEqual(render("pick-t2", "Pick a note", ["> a"], PICK_FOOTER));
    d.send({ type: "panel_close", panel_id: "pick-t2" });
    expect(await d.next((f) => f.id === "t2")).toEqual(text("t2", "The user dismissed the picker.", { is_error: true }));

    d.send({ type: "shutdown" });
    await d.exited;
    expect(d.frames.filter((f) => f.id === "t1")).toEqual([]); // a cancelled call gets no result
    expect(d.frames.filter((f) => f.type === "panel_close")).toHaveLength(1); // the host closed pick-t2 itself
  });

  it("guards bash, redacts API keys and extends the system prompt", async () => {
    const d = await startNotes();
    const bash = (command: string) => ({ tool_id: "x", tool_name: "bash", tool_args: { command, timeout: 5 } });
    expect(await intercept(d, "i1", "tool_call", bash("rm -rf /"))).toEqual(
      { type: "event_intercept_response", id: "i1", block: true, reason: 'refused: matches danger pattern "rm -rf"' });
    expect(await intercept(d, "i2", "tool_call", bash("git push --force origin main"))).toEqual(
      { type: "event_intercept_response", id: "i2", modified_args: { command: "git push --force-with-lease origin main", timeout: 5 } });
    expect(await intercept(d, "i3", "tool_call", bash("git push --force-with-lease"))).toEqual({ type: "event_intercept_response", id: "i3" });
    expect(await intercept(d, "i4", "assistant_message", { text: "use sk-ant-abcdef123456 now" })).toEqual(
      { type: "event_intercept_response", id: "i4", replace_text: "use [redacted] now" });
    expect(await intercept(d, "i5", "before_agent_start", { system_prompt: "Base." })).toEqual({
      type: "event_intercept_response", id: "i5",
      system_prompt: "Base.\n\nThe user keeps notes: call add_note when they ask you to remember something.",
    });
  });

  it("reminds about saved notes when a session starts", async () => {
    const d = await startNotes(["a", "b"]);
    d.send({ type: "event", event: "session_start", session_id: "s1", cwd: "/proj", sequence: 1 });
    expect(await ofType(d, "notify")).toEqual({ type: "notify", level: "info", message: "2 saved notes: /notes to browse" });
  });

  it("runs with zot_ext.py copied beside main.py, and says so when the SDK is missing", async () => {
    const alone = mkdtempSync(join(tmpdir(), "py-notes-copy-"));
    try {
      copyFileSync(join(EXAMPLE, "main.py"), join(alone, "main.py"));
      const missing = spawnNotes(alone, true);
      expect(await missing.exited).toEqual({ code: 1, signal: null });
      expect(missing.frames).toEqual([]);
      expect(missing.stderr()).toContain("zot_ext.py not found");

      copyFileSync(join(ROOT, "sdk", "python", "zot_ext.py"), join(alone, "zot_ext.py"));
      const copied = spawnNotes(alone, true);
      expect(await copied.next()).toEqual(expect.objectContaining({ type: "hello", name: "py-notes" }));
    } finally {
      for (const d of drivers.splice(0)) await d.close();
      rmSync(alone, { recursive: true, force: true });
    }
  });
});
