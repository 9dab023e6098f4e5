// /btw: a side question answered from the conversation, with no tools, that leaves the
// conversation and its session file as they were and counts its usage. The real bundle against
// the scripted model server.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { jsonLines, makeWorld, requestText, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const sessionFile = (w: World) => execFileSync("find", [join(w.home, "sessions"), "-name", "*.jsonl"], { encoding: "utf8" }).trim();

describe("/btw", () => {
  it("answers from the conversation with no tools, leaves the session file unchanged, and counts its usage", async () => {
    world = await makeWorld([{ text: "Noted: the deadline is Friday." }, { text: "You said Friday.", usage: { input: 50, output: 5 } }]);
    expect((await world.run(["-p", "remember: the deadline is Friday"])).code).toBe(0);
    const file = sessionFile(world);
    const before = readFileSync(file, "utf8");

    const run = await world.run(["--mode", "json", "-c", "/btw when is the deadline?"]);
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    const aside = world.server.requests[1]!.body;
    expect(aside.tools ?? []).toEqual([]);
    expect(requestText(aside)).toContain("remember: the deadline is Friday");
    expect(requestText(aside)).toContain("when is the deadline?");
    expect(JSON.stringify(lines)).toContain("You said Friday.");
    expect(lines.find((l) => l.type === "usage")).toMatchObject({ input: 50, output: 5 });
    // Nothing joined the conversation: no prompt event, no message, the file as it was.
    expect(lines.some((l) => l.type === "user_prompt_submit" || l.type === "assistant_message")).toBe(false);
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("prints its answer in print mode, and without a question says how to use it", async () => {
    world = await makeWorld([{ text: "It is a test." }]);
    const answered = await world.run(["-p", "--no-session", "/btw what is this?"]);
    expect(answered).toMatchObject({ code: 0, stdout: "It is a test.\n" });
    const bare = await world.run(["-p", "--no-session", "/btw"]);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain("usage: /btw QUESTION");
  });
});
