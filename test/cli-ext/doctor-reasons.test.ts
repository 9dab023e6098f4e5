// `zot ext doctor` and `zot ext test` say why an extension could not start, in words an author
// can act on: a script without its executable bit, a missing #! interpreter, and what the
// extension itself last wrote on stderr before it gave up.
import { chmodSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runZot, writeFiles, type Sandbox } from "./support/cli.ts";

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox();
});
afterEach(() => sb.cleanup());

const manifest = (name: string, exec: string) => `${JSON.stringify({ name, version: "0.1.0", exec, enabled: true })}\n`;

async function firstError(name: string): Promise<string> {
  const doctor = await runZot(["ext", "doctor", "--json"], { cwd: sb.project, env: sb.env });
  expect(doctor.code).toBe(1);
  const report = JSON.parse(doctor.stdout).extensions.find((e: { name: string }) => e.name === name);
  expect(report).toMatchObject({ status: "error" });
  return report.errors[0].split("\n")[0];
}

describe("why an extension could not start", () => {
  it("a script without its executable bit: not executable: chmod +x PATH (no raw EACCES), in doctor and ext test", async () => {
    const dir = join(sb.globalRoot, "noexec");
    writeFiles(dir, { "extension.json": manifest("noexec", "./hello.py"), "hello.py": "#!/bin/sh\nexit 0\n" });
    chmodSync(join(dir, "hello.py"), 0o644);
    const line = await firstError("noexec");
    expect(line).toContain(`not executable: chmod +x ${join(dir, "hello.py")}`);
    expect(line).not.toMatch(/EACCES/);
    const test = await runZot(["ext", "test", dir], { cwd: sb.project, env: sb.env });
    expect(test.code).not.toBe(0);
    expect(test.stdout).toContain(`not executable: chmod +x ${join(dir, "hello.py")}`);
  });

  it("a #! line naming an interpreter that does not exist names that interpreter", async () => {
    const dir = join(sb.globalRoot, "nointerp");
    writeFiles(dir, { "extension.json": manifest("nointerp", "./main.py"), "main.py": "#!/usr/bin/python-that-is-not-there\n" });
    chmodSync(join(dir, "main.py"), 0o755);
    expect(await firstError("nointerp")).toContain("its #! interpreter /usr/bin/python-that-is-not-there does not exist");
  });

  it("an extension that exits before hello: its last stderr line is in the error, not only the exit status", async () => {
    const dir = join(sb.globalRoot, "gives-up");
    writeFiles(dir, {
      "extension.json": manifest("gives-up", "./run.sh"),
      "run.sh": "#!/bin/sh\necho 'starting' >&2\necho 'gives-up: cannot start: no frobnicator on PATH.' >&2\nexit 3\n",
    });
    chmodSync(join(dir, "run.sh"), 0o755);
    expect(await firstError("gives-up")).toMatch(/failed to start: exited with status 3 \(its stderr ends: gives-up: cannot start: no frobnicator on PATH\.\) before sending hello/);
    const test = await runZot(["ext", "test", dir], { cwd: sb.project, env: sb.env });
    expect(test.stdout).toMatch(/hello +it exited with status 3 \(its stderr ends: gives-up: cannot start: no frobnicator on PATH\.\) before sending hello/);
    // The log still has it all.
    const doctor = await runZot(["ext", "doctor", "--json"], { cwd: sb.project, env: sb.env });
    const report = JSON.parse(doctor.stdout).extensions.find((e: { name: string }) => e.name === "gives-up");
    expect(readFileSync(report.log_path, "utf8")).toContain("starting\n");
  });
});
