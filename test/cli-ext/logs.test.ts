// `zot ext logs`: the tail of $ZOT_HOME/logs/ext-<name>.log, and following it.
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runZot, startZot, writeExtension, type Sandbox } from "./support/cli.ts";

let sb: Sandbox;
let logs: string;
beforeEach(() => {
  sb = makeSandbox();
  logs = join(sb.home, "logs");
  mkdirSync(logs, { recursive: true });
});
afterEach(() => sb.cleanup());

const zot = (...args: string[]) => runZot(["ext", ...args], { cwd: sb.project, env: sb.env });
const numbered = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}\n`).join("");

describe("zot ext logs", () => {
  it("prints the last 200 lines by default, and -n N lines", async () => {
    writeFileSync(join(logs, "ext-weather.log"), numbered(1, 250));
    const all = await zot("logs", "weather");
    expect(all.code).toBe(0);
    expect(all.stdout).toBe(numbered(51, 250));
    const [three, none, partial] = await Promise.all([zot("logs", "weather", "-n", "3"), zot("logs", "weather", "-n0"),
      zot("logs", "weather", "--lines=1000")]);
    expect(three.stdout).toBe(numbered(248, 250));
    expect(none.stdout).toBe("");
    expect(partial.stdout).toBe(numbered(1, 250));
  });

  it("counts a last line without a newline as a line", async () => {
    writeFileSync(join(logs, "ext-x.log"), "a\nb\nc");
    expect((await zot("logs", "x", "-n", "2")).stdout).toBe("b\nc");
  });

  it("finds the log of an install given by its folder name", async () => {
    writeExtension(join(sb.globalRoot, "zot-todo"), { name: "todo" });
    writeFileSync(join(logs, "ext-todo.log"), "from todo\n");
    expect((await zot("logs", "zot-todo")).stdout).toBe("from todo\n");
  });

  it("says clearly when there is no such extension, or no log yet for an installed one, and rejects a bad -n", async () => {
    const missing = await zot("logs", "ghost");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`zot: no extension named "ghost": none is installed and none has run under that name (zot ext list shows them)\n`);
    writeExtension(join(sb.globalRoot, "quiet"), { name: "quiet" });
    const notYet = await zot("logs", "quiet");
    expect(notYet.stderr).toBe(`zot: no log for "quiet" yet (${join(logs, "ext-quiet.log")}); zot writes it when it starts the extension\n`);
    const bad = await zot("logs", "ghost", "-n", "ten");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^zot: -n expects a whole number/);
  });

  it("-f prints lines appended while it runs, until SIGTERM", async () => {
    const file = join(logs, "ext-live.log");
    writeFileSync(file, "old 1\nold 2\n");
    const follower = startZot(["ext", "logs", "live", "-f", "-n", "1"], { cwd: sb.project, env: sb.env });
    try {
      await follower.waitForStdout((out) => out === "old 2\n");
      appendFileSync(file, "new 1\n");
      await follower.waitForStdout((out) => out === "old 2\nnew 1\n");
      appendFileSync(file, "new 2\nnew 3\n");
      await follower.waitForStdout((out) => out.endsWith("new 3\n"));
      expect(follower.stdout()).toBe("old 2\nnew 1\nnew 2\nnew 3\n");
    } finally {
      follower.child.kill("SIGTERM");
    }
    expect(await follower.exited).toBe(0);
    expect(follower.stderr()).toBe("");
  });

  it("-f ends quietly once its reader leaves (`zot ext logs x -f | head -1`)", async () => {
    const file = join(logs, "ext-live.log");
    writeFileSync(file, "old 1\n");
    const follower = startZot(["ext", "logs", "live", "-f", "-n", "1"], { cwd: sb.project, env: sb.env });
    await follower.waitForStdout((out) => out === "old 1\n");
    follower.child.stdout!.destroy();
    // The next appended line is written into the closed pipe, which ends the follow.
    appendFileSync(file, "new 1\n");
    expect(await follower.exited).toBe(0);
    expect(follower.stderr()).toBe("");
  });
});
