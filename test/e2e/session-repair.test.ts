// A damaged session file is repaired in memory as it loads, and zot says what it repaired in
// every mode; the file itself is left as it was (new entries are appended after it).
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { INTERRUPTED_TEXT } from "../../lib/agent/session/session-repair.ts";
import { rpc } from "./rpc-client.ts";
import { jsonLines, makeWorld, REPAIR_NOTES, requestText, writeDamagedSession, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("session repair is shown, never silent", () => {
  it("print mode: each repair is a line on stderr; the model sees the interrupted call; the damaged lines stay in the file", async () => {
    world = await makeWorld([{ text: "carried on" }]);
    const { path, content } = writeDamagedSession(world);
    const r = await world.run(["-p", "--session", path, "go on"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("carried on\n");
    const notes = r.stderr.split("\n").filter((l) => l.includes("was repaired while loading"));
    expect(notes).toHaveLength(2);
    for (const [i, note] of REPAIR_NOTES.entries()) expect(notes[i]).toMatch(new RegExp(`^zot: ${note.source}`));
    expect(requestText(world.server.requests[0]!.body)).toContain(INTERRUPTED_TEXT);
    expect(readFileSync(path, "utf8").startsWith(content)).toBe(true);
  });

  it("json mode: an error event per repair, before the prompt is submitted", async () => {
    world = await makeWorld([{ text: "ok" }]);
    const { path } = writeDamagedSession(world);
    const r = await world.run(["--mode", "json", "--session", path, "go on"]);
    expect(r.code).toBe(0);
    const events = jsonLines(r.stdout);
    const beforePrompt = events.slice(0, events.findIndex((e) => e.type === "user_prompt_submit"));
    expect(beforePrompt.filter((e) => e.type === "error")).toEqual([
      { type: "error", message: expect.stringMatching(REPAIR_NOTES[0]!) },
      { type: "error", message: expect.stringMatching(REPAIR_NOTES[1]!) },
    ]);
    expect(r.stderr).not.toMatch(/repaired/);
  });

  it("rpc mode: an error event per repair before any command is answered", async () => {
    world = await makeWorld();
    const { path, content } = writeDamagedSession(world);
    const c = rpc(world, ["--session", path]);
    await c.call({ type: "ping" });
    expect(c.lines.filter((l) => l.type === "error").map((l) => l.message)).toEqual([
      expect.stringMatching(REPAIR_NOTES[0]!), expect.stringMatching(REPAIR_NOTES[1]!)]);
    c.end();
    expect(await c.exited).toBe(0);
    expect(readFileSync(path, "utf8")).toBe(content);
  });
});
