// `zot sessions`: this project's conversations without starting a run. The real bundle against
// the scripted model server: a conversation made with `-p` and `-c`, then listed, shown,
// exported, imported into another $ZOT_HOME (where `zot -c` continues it), and removed.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, requestText, type World } from "./support.ts";

const worlds: World[] = [];
afterEach(async () => {
  await Promise.all(worlds.splice(0).map((w) => w.close()));
});

async function world(script: Parameters<typeof makeWorld>[0]): Promise<World> {
  const w = await makeWorld(script);
  worlds.push(w);
  return w;
}

async function twoTurns(w: World): Promise<string> {
  expect((await w.run(["-p", "plan the trip"])).code).toBe(0);
  expect((await w.run(["-c", "-p", "and the budget?"])).code).toBe(0);
  const listed = await w.run(["sessions"]);
  expect(listed.code).toBe(0);
  return firstId(listed.stdout);
}

/** The first session's id in `zot sessions`'s table (under its header). */
const firstId = (stdout: string) => stdout.trim().split("\n")[1]!.split(/\s+/)[0]!;

describe("zot sessions", () => {
  it("lists this project's sessions with messages and first prompt, and shows one as the resume view does", async () => {
    const w = await world([{ text: "Day one: Lisbon." }, { text: "About 900 euros.\n\n## Budget\n\n- hotels\n- trains\n- food\n- museums\n- tips\n- extras\n- the last line of a long answer" }]);
    const id = await twoTurns(w);
    const listed = await w.run(["sessions", "list"]);
    expect(listed.stdout).toMatch(new RegExp(`^ID +AGE +MESSAGES +REWIND, BRANCH +FIRST PROMPT\\n${id}  just now  4 messages +plan the trip\\n$`));
    const shown = await w.run(["sessions", "show", id]);
    expect(shown.code).toBe(0);
    // The whole answer, rendered as markdown (the heading's marks gone, the list's bullets drawn).
    expect(shown.stdout).toContain("Budget");
    expect(shown.stdout).not.toContain("## Budget");
    expect(shown.stdout).toMatch(/• hotels/);
    expect(shown.stdout).toContain("the last line of a long answer");
    for (const text of ["plan the trip", "Day one: Lisbon.", "and the budget?", "About 900 euros.", `Resumed conversation ${id}`]) {
      expect(shown.stdout).toContain(text);
    }
  });

  it("an export imported into a fresh $ZOT_HOME is continued there by zot -c", async () => {
    const a = await world([{ text: "Day one: Lisbon." }, { text: "About 900 euros." }]);
    const id = await twoTurns(a);
    const file = join(a.cwd, "trip.zotsession");
    const exported = await a.run(["sessions", "export", id, file]);
    expect(exported.stdout).toContain(`exported session ${id} to ${file}`);

    const b = await world([{ text: "Book the flights first." }]);
    const imported = await b.run(["sessions", "import", file]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain(`imported session ${id} (4 messages)`);
    expect((await b.run(["-c", "-p", "what first?"])).code).toBe(0);
    const asked = requestText(b.server.requests[0]!.body);
    for (const text of ["plan the trip", "About 900 euros.", "what first?"]) expect(asked).toContain(text);
    // The same file again is refused, naming the session.
    const again = await b.run(["sessions", "import", file]);
    expect([again.code, again.stderr]).toEqual([1, expect.stringContaining(`already has session ${id}`)]);
  });

  it("refuses a damaged export with exit 1 and a message, and rm removes only a session of this project", async () => {
    const w = await world([{ text: "ok" }]);
    expect((await w.run(["-p", "hello"])).code).toBe(0);
    const id = firstId((await w.run(["sessions"])).stdout);
    writeFileSync(join(w.cwd, "bad.zotsession"), "{");
    const bad = await w.run(["sessions", "import", "bad.zotsession"]);
    expect([bad.code, bad.stderr]).toEqual([1, expect.stringContaining("is damaged")]);
    const missing = await w.run(["sessions", "rm", "no-such-session"]);
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('no session "no-such-session" in this project')]);
    const refused = await w.run(["sessions", "rm", id]);
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining("without a terminal to ask on, add --yes")]);
    const removed = await w.run(["sessions", "rm", id, "--yes"]);
    expect(removed.code).toBe(0);
    const path = removed.stdout.match(/\((.*)\)/)![1]!;
    expect(existsSync(path)).toBe(false);
    expect((await w.run(["sessions"])).stdout).toContain("no sessions for");
  });

  it("a header, singular counts, --json for scripts, an id prefix when unique, and a first prompt cut to COLUMNS but not in a pipe", async () => {
    const w = await world([{ text: "one" }, { text: "two" }]);
    expect((await w.run(["-p", "a first prompt that is long enough to be cut at a narrow terminal width, surely"])).code).toBe(0);
    expect((await w.run(["-p", "second"])).code).toBe(0);
    const narrow = await w.run(["sessions"], { env: { COLUMNS: "70" } });
    const lines = narrow.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^ID +AGE +MESSAGES/);
    expect(narrow.stdout).toContain("2 messages");
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(70);
    expect(narrow.stdout).toContain("…");
    // Into a pipe (no COLUMNS) nothing is cut, as zot ext list and zot mcp list do.
    expect((await w.run(["sessions"])).stdout).toContain("a first prompt that is long enough to be cut at a narrow terminal width, surely");
    const json = JSON.parse((await w.run(["sessions", "--json"])).stdout) as Array<{ id: string; messages: number; first_prompt: string }>;
    expect(json.map((s) => s.first_prompt).sort()).toEqual(["a first prompt that is long enough to be cut at a narrow terminal width, surely", "second"]);
    const [a, b] = json.map((s) => s.id);
    // A prefix only one session has names it; a shared one names both and changes nothing.
    let unique = 1;
    while (a!.slice(0, unique) === b!.slice(0, unique)) unique++;
    expect((await w.run(["sessions", "show", a!.slice(0, unique)])).stdout).toContain(`Resumed conversation ${a}`);
    const shared = await w.run(["sessions", "rm", a!.slice(0, unique - 1), "--yes"]);
    expect([shared.code, shared.stderr]).toEqual([1, expect.stringContaining("is the start of 2 sessions")]);
    expect((await w.run(["sessions", "show", "--help"])).stdout).toContain("zot sessions show ID");
  });

  it("says how to use it for an unknown verb or a missing argument (exit 2)", async () => {
    const w = await world([]);
    for (const args of [["sessions", "frobnicate"], ["sessions", "show"], ["sessions", "import", "a", "b"]]) {
      const run = await w.run(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("zot sessions show ID");
    }
    expect(existsSync(join(w.home, "sessions"))).toBe(false);
  });
});
