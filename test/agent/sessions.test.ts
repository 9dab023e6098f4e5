import { spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { NO_HOOKS } from "../../lib/agent/contracts/hooks.ts";
import { readSession, SessionError } from "../../lib/agent/session/session-file.ts";
import { INTERRUPTED_TEXT } from "../../lib/agent/session/session-repair.ts";
import { listSessions, openSession, sessionDirFor, type SessionSelection } from "../../lib/agent/session/session-select.ts";
import { cwdKey, pathsUnder } from "../../lib/paths.ts";
import { startHarness, systemSent, toolResultsSent, type Harness } from "./harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ROOT = join(import.meta.dirname, "..", "..");

function open(selection: SessionSelection) {
  const sessionsDir = pathsUnder(h!.home).sessions;
  return openSession(selection, { sessionsDir, cwd: h!.cwd, provider: "anthropic", model: "claude-sonnet-4-6" });
}

async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("Sessions: append-only JSONL under $ZOT_HOME/sessions/<cwd-key>/", () => {
  it("writes a header and one entry per message, and the session id is the events' session_id", async () => {
    h = await startHarness([{ tool_calls: [{ id: "p1", name: "bash", args: { command: "echo persisted" } }] }, { text: "all done" }]);
    const opened = open({ kind: "new" });
    const session = h.newSession({ session: opened });
    expect(existsSync(opened.file!.path)).toBe(false); // nothing on disk before the first message
    await session.prompt("run it");

    expect(opened.file!.path).toBe(join(h.home, "sessions", cwdKey(h.cwd), `${opened.id}.jsonl`));
    const lines = readFileSync(opened.file!.path, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: "session", id: opened.id, cwd: h.cwd, provider: "anthropic", model: "claude-sonnet-4-6" });
    expect(typeof lines[0].created).toBe("string");
    expect(lines.slice(1).map((l) => `${l.type}:${l.message.role}`)).toEqual([
      "message:user", "message:assistant", "message:tool_result", "message:assistant",
    ]);
    expect(h.events.filter((e) => "session_id" in e).every((e) => (e as { session_id: string }).session_id === opened.id)).toBe(true);
    expect(session.state.session_file).toBe(opened.file!.path);
  });

  it("--continue reopens the latest session of this cwd and the model sees its history", async () => {
    h = await startHarness([{ text: "first answer" }, { text: "second answer" }, { text: "continued" }]);
    const older = open({ kind: "new" });
    await h.newSession({ session: older }).prompt("old question");
    const newer = open({ kind: "new" });
    await h.newSession({ session: newer }).prompt("newer question");
    utimesSync(older.file!.path, new Date(2000, 0, 1), new Date(2000, 0, 1));

    expect(listSessions({ sessionsDir: pathsUnder(h.home).sessions, cwd: h.cwd }).map((s) => s.id)).toEqual([newer.id, older.id]);
    const continued = open({ kind: "continue" });
    expect(continued.id).toBe(newer.id);
    expect(continued.loaded!.messages).toHaveLength(2);
    await h.newSession({ session: continued }).prompt("and now?");
    const sent = h.server.requests[2]!.body.messages;
    expect(JSON.stringify(sent)).toContain("newer question");
    expect(JSON.stringify(sent)).toContain("second answer");
    expect(JSON.stringify(sent)).not.toContain("old question");
    // The continued session appends to the same file.
    expect(readSession(newer.file!.path).messages).toHaveLength(4);
  });

  it("--continue without any session starts a new one", () => {
    return startHarness([]).then((harness) => {
      h = harness;
      const opened = open({ kind: "continue" });
      expect(opened.loaded).toBeUndefined();
      expect(opened.file).toBeDefined();
    });
  });

  it("--resume takes an id, or the latest without one; unknown ids are a clear error", async () => {
    h = await startHarness([{ text: "a" }, { text: "b" }]);
    const first = open({ kind: "new" });
    await h.newSession({ session: first }).prompt("first");
    expect(() => open({ kind: "resume", id: "no-such-session" })).toThrow(SessionError);
    expect(() => open({ kind: "resume", id: "../escape" })).toThrow(/no session with id/);
    const resumed = open({ kind: "resume", id: first.id });
    expect(resumed.loaded!.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(open({ kind: "resume" }).id).toBe(first.id);
  });

  it("--resume without id fails clearly when this cwd has no session", async () => {
    h = await startHarness([]);
    expect(() => open({ kind: "resume" })).toThrow(/no session to resume/);
  });

  it("--session PATH creates the file there, and reopens it later", async () => {
    h = await startHarness([{ text: "a" }, { text: "b" }]);
    const path = join(h.home, "custom", "mine.jsonl");
    const created = open({ kind: "path", path });
    expect(created.id).toBe("mine");
    await h.newSession({ session: created }).prompt("hello");
    const reopened = open({ kind: "path", path });
    expect(reopened.loaded!.messages).toHaveLength(2);
  });

  it("--no-session keeps the transcript in memory and writes nothing", async () => {
    h = await startHarness([{ text: "a" }]);
    const opened = open({ kind: "none" });
    const session = h.newSession({ session: opened });
    await session.prompt("hello");
    expect(session.messages).toHaveLength(2);
    expect(existsSync(pathsUnder(h.home).sessions)).toBe(false);
    expect(session.state.session_file).toBeUndefined();
  });

  it("clear and model switches are persisted and replayed", async () => {
    h = await startHarness([{ text: "a" }, { text: "b" }]);
    const opened = open({ kind: "new" });
    const session = h.newSession({ session: opened });
    await session.prompt("before clear");
    await session.clear();
    session.setModel("claude-opus-4-6");
    await session.prompt("after clear");
    const loaded = readSession(opened.file!.path);
    expect(loaded.model).toBe("claude-opus-4-6");
    expect(JSON.stringify(loaded.messages)).not.toContain("before clear");
    expect(loaded.messages).toHaveLength(2);
  });
});

describe("Sessions: crash safety", () => {
  it("a torn last line is skipped, not fatal, and later entries start on a fresh line", async () => {
    h = await startHarness([{ text: "a" }, { text: "b" }]);
    const opened = open({ kind: "new" });
    await h.newSession({ session: opened }).prompt("keep me");
    appendFileSync(opened.file!.path, '{"type":"message","message":{"role":"user","content":[{"type":"te');

    const reopened = open({ kind: "continue" });
    expect(reopened.loaded!.skippedLines).toBe(1);
    expect(reopened.loaded!.warnings.join("\n")).toMatch(/torn last line/);
    expect(reopened.loaded!.messages.map((m) => m.role)).toEqual(["user", "assistant"]);

    await h.newSession({ session: reopened }).prompt("after the tear");
    const again = readSession(opened.file!.path);
    expect(again.skippedLines).toBe(1);
    expect(again.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("a file that is not a session is refused with its path in the message", async () => {
    h = await startHarness([]);
    const path = join(h.home, "bogus.jsonl");
    writeFileSync(path, "hello\n");
    expect(() => open({ kind: "path", path })).toThrow(/bogus\.jsonl is not a zot session/);
  });

  it("a process killed mid-tool leaves a session that reloads with the call marked interrupted", async () => {
    h = await startHarness([{ text: "running", tool_calls: [{ id: "slow-1", name: "bash", args: { command: "sleep 3" } }] }, { text: "recovered" }]);
    const sessionsDir = pathsUnder(h.home).sessions;
    const child = spawn(join(ROOT, "node_modules", ".bin", "bun"), [join(ROOT, "test/agent/fixtures/run-prompt.ts"), h.server.url, h.cwd, sessionsDir, "sleep a bit"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    const exited = new Promise((r) => child.on("exit", r));
    await waitFor(() => out.includes("\n"), "the session path");
    const path = out.split("\n")[0]!;
    await waitFor(() => existsSync(path) && readFileSync(path, "utf8").includes('"tool_call"'), "the assistant tool call on disk");
    child.kill("SIGKILL");
    await exited;

    const loaded = readSession(path);
    expect(loaded.interruptedCalls).toBe(1);
    expect(loaded.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool_result"]);
    expect(loaded.messages[2]).toMatchObject({ tool_id: "slow-1", is_error: true, content: [{ type: "text", text: INTERRUPTED_TEXT }] });

    // The provider accepts the repaired transcript: the next request pairs the call with the synthetic result.
    const resumed = open({ kind: "continue" });
    expect(resumed.id).toBe(loaded.header.id);
    const result = await h.newSession({ session: resumed }).prompt("what happened?");
    expect(result.text).toBe("recovered");
    expect(toolResultsSent(h.server.requests[1]!.body)).toEqual([{ tool_use_id: "slow-1", text: INTERRUPTED_TEXT, is_error: true }]);
  });

  it("abort mid-stream ends the run as aborted and leaves a loadable session", async () => {
    h = await startHarness([{ text: "partial answer that never ends", hang_after: 2 }, { text: "fresh" }]);
    const opened = open({ kind: "new" });
    const session = h.newSession({ session: opened });
    const run = session.prompt("talk");
    await waitFor(() => h!.ofType("text_delta").length >= 2, "streamed text");
    session.abort();
    const result = await run;
    expect(result.stop).toBe("aborted");
    expect(h.ofType("turn_end").at(-1)).toMatchObject({ stop: "aborted" });
    expect(h.ofType("done").at(-1)).toEqual({ type: "done", stop: "aborted" });
    expect(await h.server.requests[0]!.outcome).toBe("client_closed");

    const loaded = readSession(opened.file!.path);
    expect(loaded.skippedLines).toBe(0);
    expect(loaded.messages[0]!.role).toBe("user");
    const resumed = open({ kind: "continue" });
    const next = await h.newSession({ session: resumed }).prompt("go on");
    expect(next.text).toBe("fresh");
  });

  it("abort during a tool cancels it, pairs every call with a result, and stops before the next model turn", async () => {
    h = await startHarness([{ tool_calls: [{ id: "t1", name: "bash", args: { command: "sleep 5" } }, { id: "t2", name: "bash", args: { command: "echo never" } }] }]);
    const opened = open({ kind: "new" });
    const session = h.newSession({ session: opened });
    const run = session.prompt("slow");
    await waitFor(() => h!.ofType("permission_decision").length >= 1, "the first tool to start");
    session.abort();
    const result = await run;
    expect(result.stop).toBe("aborted");
    expect(h.ofType("tool_result").map((r) => [r.tool_id, r.status, r.executed])).toEqual([
      ["t1", "cancelled", true],
      ["t2", "cancelled", false],
    ]);
    expect(h.server.requests).toHaveLength(1);
    const loaded = readSession(opened.file!.path);
    expect(loaded.interruptedCalls).toBe(0);
    expect(loaded.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool_result", "tool_result"]);
  });
});

describe("Session boundary events", () => {
  it("start() emits session_start once; close() emits session_end shutdown once", async () => {
    h = await startHarness([{ text: "a" }]);
    h.session.start();
    h.session.start();
    await h.session.prompt("x");
    await h.session.close();
    await h.session.close();
    expect(h.types((e) => e.type === "session_start" || e.type === "session_end")).toEqual(["session_start", "session_end"]);
    expect(h.ofType("session_end")[0]).toMatchObject({ reason: "shutdown" });
  });

  it("switching sessions ends the old one, starts the new one and rebuilds the system prompt", async () => {
    let passes = 0;
    h = await startHarness([{ text: "a" }, { text: "b" }], {
      hooks: { ...NO_HOOKS, beforeAgentStart: async (i) => { passes++; return i.systemPrompt; } },
    });
    const first = open({ kind: "new" });
    const session = h.newSession({ session: first });
    session.start();
    await session.prompt("in the first");
    const second = open({ kind: "new" });
    await session.switchSession(second);
    await session.prompt("in the second");
    expect(session.sessionId).toBe(second.id);
    expect(session.messages).toHaveLength(2);
    expect(passes).toBe(2);
    const bounds = h.events.filter((e) => e.type === "session_start" || e.type === "session_end").map((e) => [e.type, (e as { session_id: string }).session_id]);
    expect(bounds).toEqual([["session_start", first.id], ["session_end", first.id], ["session_start", second.id]]);
    expect(h.ofType("session_end")[0]).toMatchObject({ reason: "session_switch" });
    expect(readSession(second.file!.path).messages).toHaveLength(2);
  });

  it("clearing messages and switching models emit no session_end: the conversation stays open", async () => {
    h = await startHarness([{ text: "a" }, { text: "b" }]);
    const opened = open({ kind: "new" });
    const session = h.newSession({ session: opened });
    session.start();
    await session.prompt("one");
    await session.clear();
    session.setModel("claude-opus-4-7");
    await session.prompt("two");
    expect(h.types((e) => e.type === "session_start" || e.type === "session_end")).toEqual(["session_start"]);
    expect(session.sessionId).toBe(opened.id);
    expect(h.server.requests[1]!.body.model).toBe("claude-opus-4-7");
  });

  it("changing the cwd ends the conversation (cwd_change) and rebinds the built-in tools, the jail root and the system prompt to the new directory", async () => {
    h = await startHarness([
      { tool_calls: [{ id: "r1", name: "read", args: { path: "here.txt" } }, { id: "w1", name: "write", args: { path: "../project/out.txt", content: "x" } }] },
      { text: "done" },
    ]);
    const elsewhere = join(h.cwd, "..", "elsewhere");
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, "here.txt"), "content of the new directory\n");
    writeFileSync(join(elsewhere, "AGENTS.md"), "RULES-OF-ELSEWHERE\n");
    const first = open({ kind: "new" });
    const session = h.newSession({ session: first, jail: true, prompt: { contextFiles: {} } });
    session.start();
    const second = open({ kind: "new" });
    let between = "";
    await session.changeCwd(elsewhere, second, async () => {
      between = session.cwd;
    });
    expect(between).toBe(elsewhere);
    expect(session.cwd).toBe(elsewhere);
    expect(session.state).toMatchObject({ cwd: elsewhere, session_id: second.id, jail: true });
    const bounds = h.events.filter((e) => e.type === "session_start" || e.type === "session_end")
      .map((e) => [e.type, (e as { session_id: string }).session_id, (e as { cwd: string }).cwd]);
    expect(bounds).toEqual([["session_start", first.id, h.cwd], ["session_end", first.id, h.cwd], ["session_start", second.id, elsewhere]]);
    expect(h.ofType("session_end")[0]).toMatchObject({ reason: "cwd_change" });

    await session.prompt("look around");
    const [read, write] = toolResultsSent(h.server.requests[1]!.body);
    expect(read!.text).toContain("content of the new directory");
    // The old directory is outside the jail now.
    expect(write).toMatchObject({ is_error: true, text: expect.stringContaining("blocked by jail") });
    expect(existsSync(join(h.cwd, "out.txt"))).toBe(false);
    const system = systemSent(h.server.requests[0]!.body);
    expect(system).toContain(`Working directory: ${elsewhere}`);
    expect(system).toContain("RULES-OF-ELSEWHERE");
  });

  it("a session that never observed anything ends without events", async () => {
    h = await startHarness([]);
    await h.session.close();
    expect(h.events).toEqual([]);
    expect(readdirSync(h.home)).toEqual([]);
    expect(sessionDirFor({ sessionsDir: "/s", cwd: "/a/b" })).toBe(join("/s", cwdKey("/a/b")));
  });
});
