// What a project's trust pins is what will run, wherever it is: after `zot ext trust --project`,
// changing the file a symlink in the folder leads to, or an `exec` outside the folder, holds the
// extension back until it is trusted again. A FIFO in the folder is recorded, never read.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A shell program that says hello and touches `marker` when it starts. */
const program = (marker: string, version: string) =>
  `#!/bin/sh\ntouch ${marker}\necho '{"type":"hello","name":"pinned","version":"${version}"}'\ncat >/dev/null\n`;

function projectExtension(w: World, exec: string): string {
  const dir = join(w.cwd, ".zot", "extensions", "pinned");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "pinned", exec }));
  return dir;
}

describe("trust pins what will run", () => {
  it("a symlink's target outside the folder: an edit there after trust holds the extension back", async () => {
    world = await makeWorld([{ text: "a" }, { text: "b" }]);
    const shared = join(world.cwd, "..", "shared");
    mkdirSync(shared, { recursive: true });
    const marker = join(world.cwd, "..", "started");
    writeFileSync(join(shared, "run.sh"), program(marker, "1"), { mode: 0o755 });
    const dir = projectExtension(world, "./run.sh");
    symlinkSync(join(shared, "run.sh"), join(dir, "run.sh"));
    expect((await world.run(["ext", "trust", "--project", "--yes"])).code).toBe(0);
    await world.run(["-p", "hi"]);
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    writeFileSync(join(shared, "run.sh"), program(marker, "2"), { mode: 0o755 });
    const r = await world.run(["-p", "hi"]);
    expect(existsSync(marker)).toBe(false);
    expect(r.stderr).toMatch(/project extension "pinned" is not started: its files changed since you trusted this project \(run\.sh changed/);
  });

  it("an exec outside the folder: an edit to it after trust holds the extension back", async () => {
    world = await makeWorld([{ text: "a" }, { text: "b" }]);
    const marker = join(world.cwd, "..", "started");
    const shared = join(world.cwd, "..", "shared");
    mkdirSync(shared, { recursive: true });
    writeFileSync(join(shared, "run.sh"), program(marker, "1"), { mode: 0o755 });
    projectExtension(world, "../../../../shared/run.sh");
    expect((await world.run(["ext", "trust", "--project", "--yes"])).code).toBe(0);
    await world.run(["-p", "hi"]);
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    writeFileSync(join(shared, "run.sh"), program(marker, "2"), { mode: 0o755 });
    const r = await world.run(["-p", "hi"]);
    expect(existsSync(marker)).toBe(false);
    expect(r.stderr).toContain("its files changed since you trusted this project (exec ");
  });

  it("a FIFO in the folder neither hangs zot ext trust --project nor a start", async () => {
    world = await makeWorld([{ text: "a" }]);
    const marker = join(world.cwd, "..", "started");
    const dir = projectExtension(world, "./run.sh");
    writeFileSync(join(dir, "run.sh"), program(marker, "1"), { mode: 0o755 });
    execFileSync("mkfifo", [join(dir, "pipe")]);
    expect((await world.run(["ext", "trust", "--project", "--yes"])).code).toBe(0);
    expect((await world.run(["-p", "hi"])).code).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });
});
