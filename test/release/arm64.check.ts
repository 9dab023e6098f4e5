// release:check — the linux-arm64 binary, run under qemu user-mode emulation: --version, an sh
// extension through `zot ext doctor`, and a json-mode run against the scripted model server.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ZOT_VERSION } from "../../lib/version.ts";
import { archiveName, archiveStem, RELEASE_TARGETS } from "../../release/targets.ts";
import { jsonLines, makeWorld, ROOT, type World } from "../e2e/support.ts";
import { runClosed, type ClosedRun } from "../support/run-closed.ts";
import { extractArchive, REAL_RELEASE_DIR } from "./support.ts";

const ARM64_ROOT = "/usr/aarch64-linux-gnu";
const NEEDS = "apt-get install qemu-user libc6-arm64-cross libstdc++6-arm64-cross";
const SH_EXTENSION = join(ROOT, "test", "fixtures", "extensions", "sh-notes");
const target = RELEASE_TARGETS.find((t) => t.os === "linux" && t.arch === "arm64")!;
const scratch = mkdtempSync(join(tmpdir(), "zot-arm64-check-"));
const binary = join(scratch, archiveStem(ZOT_VERSION, target), "zot");
let world: World | undefined;

function qemu(): string {
  try {
    return execFileSync("/bin/sh", ["-c", "command -v qemu-aarch64"], { encoding: "utf8" }).trim();
  } catch {
    return "";
  }
}

beforeAll(() => {
  if (!qemu() || !existsSync(join(ARM64_ROOT, "lib", "ld-linux-aarch64.so.1"))) {
    throw new Error(`running the linux-arm64 binary needs qemu-aarch64 and the arm64 C libraries; on Debian or Ubuntu: ${NEEDS}`);
  }
  extractArchive(join(REAL_RELEASE_DIR!, archiveName(ZOT_VERSION, target)), scratch);
});
afterEach(async () => {
  await world?.close();
  world = undefined;
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function runEmulated(args: string[], env: Record<string, string>, cwd: string): Promise<ClosedRun> {
  return runClosed(qemu(), ["-L", ARM64_ROOT, binary, ...args], { cwd, env: { ...env, NO_COLOR: "1" } });
}

describe(`${archiveName(ZOT_VERSION, target)} under qemu-aarch64`, { timeout: 120_000 }, () => {
  it("--version prints the version", async () => {
    world = await makeWorld();
    const r = await runEmulated(["--version"], world.env, world.cwd);
    expect(r).toMatchObject({ code: 0, stdout: `${ZOT_VERSION}\n` });
  });

  it("zot ext doctor starts an sh extension, finds it ready with its commands, and stops it", async () => {
    world = await makeWorld();
    const r = await runEmulated(["ext", "doctor", "--json", "-e", SH_EXTENSION], world.env, world.cwd);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.ok).toBe(true);
    expect(report.extensions).toEqual([expect.objectContaining({ name: "sh-notes", status: "ok", ready: "ready", commands: ["shnote", "shclear"] })]);
  });

  it("--mode json streams a scripted answer: session first, done last, protocol lines only", async () => {
    world = await makeWorld([{ text: "hello from arm64" }]);
    const r = await runEmulated(["--mode", "json", "say hi"], world.env, world.cwd);
    expect(r.code).toBe(0);
    const events = jsonLines(r.stdout);
    expect(events[0]).toMatchObject({ type: "session", protocol_version: 1 });
    expect(events.at(-1)).toEqual({ type: "done", stop: "end_turn" });
    expect(r.stdout).toContain("hello from arm64");
    expect(world.server.requests).toHaveLength(1);
  });
});
