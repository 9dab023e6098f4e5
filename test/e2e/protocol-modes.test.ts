// Rules of the extension protocol in the modes without a terminal (print, json, rpc): the real
// bundle against the scripted model server, with real extension processes that record what
// they receive (test/fixtures/e2e/recorder, or a script written by the test).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { extensionLogPath, pathsUnder } from "../../lib/paths.ts";
import { pollFor, recordedFrames, savedTranscripts } from "./records.ts";
import { rpc } from "./rpc-client.ts";
import { jsonLines, makeWorld, ROOT, type World } from "./support.ts";

const RECORDER = join(ROOT, "test", "fixtures", "e2e", "recorder");

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A saved conversation of two exchanges, for replay. */
function writeSession(w: World): string {
  const path = join(w.cwd, "..", "earlier.jsonl");
  const exchange = (question: string, answer: string) => [
    { type: "message", message: { role: "user", content: [{ type: "text", text: question }] } },
    { type: "message", message: { role: "assistant", stop: "end_turn", content: [{ type: "text", text: answer }] } },
  ];
  const lines = [
    { type: "session", version: 1, id: "earlier", cwd: w.cwd, created: "2026-01-01T00:00:00.000Z", provider: "anthropic", model: "claude-sonnet-4-6" },
    ...exchange("REPLAYED-QUESTION-ONE", "first answer"), ...exchange("REPLAYED-QUESTION-TWO", "second answer"),
  ];
  writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  return path;
}

describe("session boundaries and prompt submission in rpc mode", () => {
  it("an rpc session emits session_start when initialized, before any command", async () => {
    world = await makeWorld();
    const record = join(world.cwd, "..", "recorder.jsonl");
    const c = rpc(world, ["-e", RECORDER], { ZOT_TEST_RECORD: record });
    const started = await pollFor(() => recordedFrames(record).find((f) => f.type === "event" && f.event === "session_start"), "session_start");
    await c.waitFor((l) => l.type === "session_start");
    expect(c.lines.filter((l) => l.type === "response")).toEqual([]);
    const state = await c.call({ type: "get_state" });
    expect(started.session_id).toBe(state.data.session_id);
    c.end();
    expect(await c.exited).toBe(0);
  });

  it("transcript replay, compaction summaries and non-submitting commands emit no user_prompt_submit", async () => {
    world = await makeWorld([{ text: "SUMMARY: two questions were asked." }, { text: "the fresh answer" }]);
    const record = join(world.cwd, "..", "recorder.jsonl");
    const submitted = () => recordedFrames(record).filter((f) => f.type === "event" && f.event === "user_prompt_submit");
    const c = rpc(world, ["-e", RECORDER, "--session", writeSession(world)], { ZOT_TEST_RECORD: record });
    expect((await c.call({ type: "get_state" })).data).toMatchObject({ message_count: 4 });
    for (const name of ["help", "tools", "note"]) expect(await c.call({ type: "command", name, args: "" })).toMatchObject({ success: true });
    await c.call({ type: "compact" });
    await c.waitFor((l) => l.type === "post_compact");
    expect(c.lines.find((l) => l.type === "post_compact")).toMatchObject({ status: "completed" });
    // The summary went to the model as a request of its own.
    expect(JSON.stringify(world.server.requests[0]!.body)).toContain("REPLAYED-QUESTION-ONE");

    await c.call({ type: "prompt", message: "a fresh question" });
    c.end(); // EOF lets the prompt finish first
    expect(await c.exited).toBe(0);
    expect(JSON.stringify(world.server.requests[1]!.body)).toContain("a fresh question");
    expect(submitted().map((e) => e.text)).toEqual(["a fresh question"]);
    expect(c.lines.filter((l) => l.type === "user_prompt_submit").map((l) => l.text)).toEqual(["a fresh question"]);
  });
});

describe("reload failures in rpc mode", () => {
  it("never reach the model and are not saved in the session transcript", async () => {
    world = await makeWorld([{ text: "answered without the failure" }]);
    const broken = join(world.cwd, ".zot", "extensions", "broken");
    mkdirSync(broken, { recursive: true });
    writeFileSync(join(broken, "extension.json"), JSON.stringify({ name: "broken", exec: "./missing-program" }));
    const c = rpc(world, ["--trust-project"]);
    expect(await c.call({ type: "command", name: "reload-ext", args: "" })).toMatchObject({ success: true });
    await c.waitFor((l) => l.type === "ext_error" && c.lines.filter((x) => x.type === "ext_error").length === 2);
    await c.call({ type: "prompt", message: "hello there" });
    c.end();
    expect(await c.exited).toBe(0);
    expect(world.server.requests).toHaveLength(1);
    const sent = JSON.stringify(world.server.requests[0]!.body);
    expect(sent).toContain("hello there");
    const transcript = savedTranscripts(world.home);
    expect(transcript).toContain("hello there");
    for (const text of ["failed to start", "missing-program", broken]) {
      expect(sent).not.toContain(text);
      expect(transcript).not.toContain(text);
    }
  });
});

describe("tool_prompt", () => {
  it("is accepted only as a slash-command response, and the extension never receives its result", async () => {
    world = await makeWorld([{ text: "read it" }]);
    writeFileSync(join(world.cwd, "secret.txt"), "THE-SECRET-CONTENT\n");
    const dir = join(world.cwd, ".zot", "extensions", "tp");
    mkdirSync(dir, { recursive: true });
    const record = join(world.cwd, "..", "tp.jsonl");
    const marker = join(world.cwd, "spontaneous-ran");
    // After ready it sends a tool_prompt that answers no command; /tp answers with a real one.
    writeFileSync(join(dir, "tp.mjs"), `
      import { appendFileSync } from "node:fs";
      import { createInterface } from "node:readline";
      const send = (f) => process.stdout.write(JSON.stringify(f) + "\\n");
      send({ type: "hello", name: "tp", version: "1.0.0", capabilities: ["commands"] });
      createInterface({ input: process.stdin }).on("line", (line) => {
        appendFileSync(${JSON.stringify(record)}, line + "\\n");
        const msg = JSON.parse(line);
        if (msg.type === "hello_ack") {
          send({ type: "register_command", name: "tp", description: "hand secret.txt to the model" });
          send({ type: "ready" });
          send({ type: "command_response", id: "unasked", action: "tool_prompt", prompt: "spontaneous prompt",
            tool_name: "bash", tool_args: { command: "touch ${marker}" } });
        } else if (msg.type === "command_invoked") {
          send({ type: "command_response", id: msg.id, action: "tool_prompt", prompt: "summarize the secret",
            tool_name: "read", tool_args: { path: "secret.txt" } });
        } else if (msg.type === "shutdown") {
          send({ type: "shutdown_ack" });
          process.exit(0);
        }
      });`);
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "tp", exec: process.execPath, args: ["tp.mjs"] }));
    const r = await world.run(["-p", "--trust-project", "/tp"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("read it\n");
    expect(world.server.requests).toHaveLength(1);
    const sent = JSON.stringify(world.server.requests[0]!.body.messages);
    expect(sent).toContain("summarize the secret");
    expect(sent).toContain("THE-SECRET-CONTENT");
    expect(sent).not.toContain("spontaneous prompt");
    expect(existsSync(marker)).toBe(false);
    expect(readFileSync(extensionLogPath(pathsUnder(world.home), "tp"), "utf8")).toMatch(/command_response for unknown or finished request unasked ignored/);
    const received = recordedFrames(record);
    expect(received.map((f) => f.type)).toEqual(["hello_ack", "command_invoked", "shutdown"]);
    expect(JSON.stringify(received)).not.toContain("THE-SECRET-CONTENT");
  });
});

describe("multi-line diagnostics keep their line breaks", () => {
  /** A project extension that fails at startup: its diagnostic has folder, exec, language and log lines. */
  function brokenExtension(w: World): string {
    const dir = join(w.cwd, ".zot", "extensions", "broken");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "broken", exec: "./missing-program", language: "sh" }));
    return dir;
  }
  const linesOf = (dir: string) => [
    expect.stringMatching(/^\[broken\] error: extension "broken" failed to start: /),
    `  folder: ${dir}`, `  exec: ./missing-program`, "  language: sh", `  log: ${extensionLogPath(pathsUnder(world!.home), "broken")}`,
  ];
  /** The stderr rows from the diagnostic's first line on. */
  const diagnosticRows = (stderr: string) => {
    const rows = stderr.split("\n");
    return rows.slice(rows.findIndex((row) => row.startsWith("[broken] error:")), undefined);
  };

  it("in print mode, on stderr", async () => {
    world = await makeWorld([{ text: "fine" }]);
    const dir = brokenExtension(world);
    const r = await world.run(["-p", "--trust-project", "hi"]);
    expect(r.stdout).toBe("fine\n");
    expect(diagnosticRows(r.stderr).slice(0, 5)).toEqual(linesOf(dir));
  });

  it("in json mode, inside the ext_error message", async () => {
    world = await makeWorld([{ text: "fine" }]);
    const dir = brokenExtension(world);
    const r = await world.run(["--mode", "json", "--trust-project", "hi"]);
    const error = jsonLines(r.stdout).find((l) => l.type === "ext_error")!;
    expect(error.message.split("\n")).toEqual([expect.stringMatching(/^extension "broken" failed to start: /), ...linesOf(dir).slice(1)]);
  });

  it("in rpc mode, inside the ext_error message", async () => {
    world = await makeWorld();
    const dir = brokenExtension(world);
    const c = rpc(world, ["--trust-project"]);
    const error = await c.waitFor((l) => l.type === "ext_error");
    expect(error.message.split("\n")).toEqual([expect.stringMatching(/^extension "broken" failed to start: /), ...linesOf(dir).slice(1)]);
    c.end();
    expect(await c.exited).toBe(0);
  });
});
