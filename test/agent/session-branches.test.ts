// Forks, the session tree, and the portable export, on real session files in a throwaway
// $ZOT_HOME: a fork records its parent and fork point and never writes the parent; a fork of a
// fork joins the same family; an export imported under another $ZOT_HOME reads back the same
// conversation; a damaged or foreign file is refused and nothing is written.
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { secretRedactor } from "../../lib/agent/session/export-redaction.ts";
import { exportText, importSession } from "../../lib/agent/session/session-export.ts";
import { familyOf, renderTree, sessionFamilies, sessionSummaries } from "../../lib/agent/session/session-family.ts";
import { readSession, SessionError, SessionFile } from "../../lib/agent/session/session-file.ts";
import { forkPoints, forkSession } from "../../lib/agent/session/session-fork.ts";
import { sessionDirFor, type SessionLocation } from "../../lib/agent/session/session-select.ts";
import type { Message } from "../../lib/providers/types.ts";

let scratch: string;
let here: SessionLocation;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), "zot-branches-"));
  here = { sessionsDir: join(scratch, "home-a", "sessions"), cwd: join(scratch, "project") };
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const answer = (text: string): Message => ({ role: "assistant", content: [{ type: "text", text }], stop: "end_turn" } as Message);

/** A session of two prompts with their answers (and a tool round in the first). */
function twoPrompts(id = "20261203-090000Z-aaaaaa"): { id: string; path: string } {
  const path = join(sessionDirFor(here), `${id}.jsonl`);
  const file = SessionFile.create(path, { id, cwd: here.cwd, created: "2026-12-03T09:00:00.000Z", provider: "anthropic", model: "m1" });
  const messages: Message[] = [
    user("first question"),
    { role: "assistant", content: [{ type: "tool_call", id: "t1", name: "bash", args: { command: "ls" } }], stop: "tool_use" } as Message,
    { role: "tool_result", tool_id: "t1", content: [{ type: "text", text: "a.txt" }], is_error: false } as Message,
    answer("first answer"),
    user("second question"),
    answer("second answer"),
  ];
  for (const message of messages) file.append({ type: "message", message });
  return { id, path };
}

describe("forking at a user message", () => {
  it("lists only user prompts as fork points, by transcript index", () => {
    const { path } = twoPrompts();
    expect(forkPoints(readSession(path).messages)).toEqual([{ index: 0, text: "first question" }, { index: 4, text: "second question" }]);
  });

  it("writes a new session with everything before the message and its parent link; the parent file is unchanged", () => {
    const parent = twoPrompts();
    const before = readFileSync(parent.path, "utf8");
    const fork = forkSession({ ...here, parentId: parent.id, messages: readSession(parent.path).messages, messageIndex: 4,
      provider: "anthropic", model: "m1" });
    expect(fork.prompt).toBe("second question");
    const loaded = readSession(fork.path);
    expect(loaded.header.parent).toEqual({ id: parent.id, message_index: 4 });
    expect(loaded.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool_result", "assistant"]);
    expect(readFileSync(parent.path, "utf8")).toBe(before);
  });

  it("a fork at the first prompt is an empty session that exists on disk", () => {
    const parent = twoPrompts();
    const fork = forkSession({ ...here, parentId: parent.id, messages: readSession(parent.path).messages, messageIndex: 0,
      provider: "anthropic", model: "m1" });
    expect(readSession(fork.path).messages).toEqual([]);
    expect(fork.prompt).toBe("first question");
  });

  it("refuses an index that is not a user prompt (a tool result, past the end)", () => {
    const parent = twoPrompts();
    const messages = readSession(parent.path).messages;
    for (const messageIndex of [2, 3, 99]) {
      expect(() => forkSession({ ...here, parentId: parent.id, messages, messageIndex, provider: "anthropic", model: "m1" })).toThrow(SessionError);
    }
    expect(readdirSync(sessionDirFor(here))).toHaveLength(1);
  });

  it("repair still works on a forked file: a torn last line is skipped and an unanswered tool call is marked", () => {
    const parent = twoPrompts();
    const fork = forkSession({ ...here, parentId: parent.id, messages: readSession(parent.path).messages.slice(0, 2).concat(user("x")),
      messageIndex: 2, provider: "anthropic", model: "m1" });
    appendFileSync(fork.path, '{"type":"message","message":{"role":"us');
    const loaded = readSession(fork.path);
    expect(loaded.skippedLines).toBe(1);
    expect(loaded.interruptedCalls).toBe(1);
    expect(loaded.header.parent?.id).toBe(parent.id);
  });
});

describe("the session tree", () => {
  it("puts a fork and a fork of that fork under their root, and marks the current session", () => {
    const root = twoPrompts();
    const first = forkSession({ ...here, parentId: root.id, messages: readSession(root.path).messages, messageIndex: 4,
      provider: "anthropic", model: "m1", now: new Date("2026-12-03T09:10:00Z") });
    const second = forkSession({ ...here, parentId: first.id, messages: readSession(first.path).messages, messageIndex: 0,
      provider: "anthropic", model: "m1", now: new Date("2026-12-03T09:20:00Z") });
    twoPrompts("20261203-080000Z-bbbbbb"); // another family
    const families = sessionFamilies(sessionSummaries(here));
    expect(families).toHaveLength(2);
    const family = familyOf(families, second.id)!;
    expect(family.session.id).toBe(root.id);
    expect(family.children.map((c) => c.session.id)).toEqual([first.id]);
    expect(family.children[0]!.children.map((c) => c.session.id)).toEqual([second.id]);
    const lines = renderTree([family], { current: first.id });
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain(root.id);
    expect(lines[1]).toMatch(new RegExp(`^\\*\\s+└ ${first.id} \\(forked at message 4\\)`));
    expect(lines[2]).toContain(`└ ${second.id} (forked at message 0)`);
  });

  it("a session whose parent was removed becomes a root; a damaged file is listed as damaged", () => {
    const root = twoPrompts();
    const fork = forkSession({ ...here, parentId: root.id, messages: readSession(root.path).messages, messageIndex: 4, provider: "anthropic", model: "m1" });
    rmSync(root.path);
    writeFileSync(join(sessionDirFor(here), "broken.jsonl"), "not json\n");
    const summaries = sessionSummaries(here);
    expect(summaries.find((s) => s.id === "broken")?.damaged).toMatch(/not a zot session/);
    expect(sessionFamilies(summaries).map((f) => f.session.id).sort()).toEqual(["broken", fork.id].sort());
  });
});

describe("export and import (.zotsession)", () => {
  it("an export imported under another $ZOT_HOME and project reads back the same conversation, fork link and latest model", async () => {
    const parent = twoPrompts();
    appendFileSync(parent.path, `${JSON.stringify({ type: "model", provider: "openai", model: "m2" })}\n`);
    const exported = join(scratch, "out.zotsession");
    writeFileSync(exported, exportText(readSession(parent.path)));
    const there: SessionLocation = { sessionsDir: join(scratch, "home-b", "sessions"), cwd: join(scratch, "elsewhere") };
    const imported = await importSession(exported, there);
    const back = readSession(imported.path);
    expect(back.messages).toEqual(readSession(parent.path).messages);
    expect([back.provider, back.model]).toEqual(["openai", "m2"]);
    expect(back.header.cwd).toBe(there.cwd);
    expect(back.header.imported?.cwd).toBe(here.cwd);
    await expect(importSession(exported, there)).rejects.toThrow(/already has session/);
  });

  it("keeps images inline and blanks the secrets it is given", () => {
    const path = join(sessionDirFor(here), "s.jsonl");
    const file = SessionFile.create(path, { id: "s", cwd: here.cwd, created: "2026-12-03T09:00:00.000Z", provider: "anthropic", model: "m1" });
    file.append({ type: "message", message: { role: "user", content: [{ type: "image", mime_type: "image/png", data: "iVBORw0KGgo=" }, { type: "text", text: "key sk-ant-0123456789 here" }] } });
    const text = exportText(readSession(path), { secrets: ["sk-ant-0123456789"] });
    expect(text).toContain("iVBORw0KGgo=");
    expect(text).not.toContain("sk-ant-0123456789");
    expect(text).toContain("[redacted]");
  });

  it("blanks a short secret only as a word of its own, and base64 of a secret at any alignment", () => {
    const redact = secretRedactor(["hunter2", "sk-ant-0123456789"]);
    expect(redact("pw hunter2, not hunter22 or xhunter2")).toBe("pw [redacted], not hunter22 or xhunter2");
    for (const prefix of ["", "a", "ab", "user:"]) {
      const encoded = Buffer.from(`${prefix}sk-ant-0123456789`).toString("base64");
      expect(redact(encoded), prefix).toContain("[redacted]");
      expect(redact(encoded.replaceAll("+", "-").replaceAll("/", "_")), prefix).toContain("[redacted]");
    }
    expect(secretRedactor(["ab"])("ab cd")).toBe("ab cd");
  });

  it.each([
    ["not JSON", "{not json", /damaged: it is not one JSON document/],
    ["a foreign JSON file", JSON.stringify({ hello: 1 }), /not a zot session export/],
    ["a newer export version", JSON.stringify({ format: "zotsession", version: 99 }), /written by a newer zot/],
    ["a bad message", JSON.stringify({ format: "zotsession", version: 1, session: { type: "session", id: "x", cwd: "/", created: "", provider: "p", model: "m", version: 1 },
      provider: "p", model: "m", messages: [{ role: "robot", content: [] }] }), /message 0 is not/],
  ])("refuses %s with a clear message and writes nothing", async (_what, text, message) => {
    const bad = join(scratch, "bad.zotsession");
    writeFileSync(bad, text);
    await expect(importSession(bad, here)).rejects.toThrow(message);
    expect(() => readdirSync(sessionDirFor(here))).toThrow(); // the folder was never even created
  });
});
