// A line meant as a command that names none costs no model call: zot says "unknown command" with
// the nearest names and the extension of that name that is not running (exit 2 outside the REPL);
// `//text` and `zot -- "/text"` send the text as it is.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killPanes, Pane } from "./pane.ts";
import { makeWorld, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  killPanes();
  await world?.close();
  world = undefined;
});

const sentText = (w: World) => JSON.stringify(w.server.requests.at(-1)?.body.messages ?? []);

describe("outside the REPL", () => {
  it("/bogus is refused with exit 2 and no model call; a typo names the nearest command", async () => {
    world = await makeWorld([{ text: "never" }]);
    const bogus = await world.run(["-p", "/bogus"]);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain("unknown command /bogus");
    const typo = await world.run(["--mode", "json", "/compat"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("did you mean /compact?");
    expect(JSON.parse(typo.stdout.trim().split("\n").at(-1)!)).toMatchObject({ type: "done", stop: "error" });
    expect(world.server.requests).toHaveLength(0);
  });

  it("the command of an untrusted project extension names that extension and why it is not running", async () => {
    world = await makeWorld();
    const dir = join(world.cwd, ".zot", "extensions", "hellopy");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "hellopy", exec: "./main.py" }));
    writeFileSync(join(dir, "main.py"), "#!/usr/bin/env python3\n", { mode: 0o755 });
    const r = await world.run(["-p", "/hellopy"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command \/hellopy; the extension hellopy is not running \(needs_approval: project extension "hellopy" is not started/);
    expect(world.server.requests).toHaveLength(0);
  });

  it("//text and a prompt after -- reach the model as text starting with a slash; a path is a prompt", async () => {
    world = await makeWorld([{ text: "one" }, { text: "two" }, { text: "three" }]);
    expect((await world.run(["-p", "//etc is a folder"])).code).toBe(0);
    expect(sentText(world)).toContain('"/etc is a folder"');
    expect((await world.run(["-p", "--", "/bogus as text"])).code).toBe(0);
    expect(sentText(world)).toContain('"/bogus as text"');
    expect((await world.run(["-p", "/tmp/x is full"])).code).toBe(0);
    expect(sentText(world)).toContain('"/tmp/x is full"');
  });
});

describe("in the REPL", () => {
  for (const width of [80, 100]) {
    it(`at ${width} columns, /bogus says unknown command, keeps the line, and asks no model`, async () => {
      world = await makeWorld([{ text: "never" }]);
      const pane = await Pane.start(world, ["--no-session"], {}, [["resize-window", "-x", String(width)]]);
      await pane.until("/help for commands");
      const text = await pane.submit("/compat", "did you mean /compact?");
      expect(text).toContain("zot: unknown command /compat");
      expect(world.server.requests).toHaveLength(0);
    });
  }
});
