// zot runs the same on every runtime it claims: the Node bundle, Bun and Deno from source, and
// the single binary from `bun build --compile`. Each runtime goes through the same end-to-end
// scenarios against the scripted model server (extension tools, bash, json events, SIGINT, zot ext,
// a Python extension on zot_ext, a scaffolded TypeScript extension with no runtime on PATH), and
// no kit extension process may outlive zot. `npm run release:check` runs the same scenarios on
// what ships instead (ZOT_RELEASE_DIR): the npm tarball's Node bundle and the host's release binary.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ZOT_VERSION } from "../../lib/version.ts";
import { COMPILE_FLAGS } from "../../release/compile-flags.ts";
import type { Turn } from "../support/model-server.ts";
import { jsonLines, KIT, makeWorld, requestText, ROOT, ZOT, type World, type ZotRun } from "./support.ts";
import { processAlive } from "../../lib/process/group.ts";
import { releaseRuntimes } from "../release/support.ts";
import { bin, bunFromSource, denoFromSource, SOURCE, type SourceRuntime } from "./source-runtimes.ts";
import { routedTurns } from "./subagent-support.ts";
import { hostPid } from "../support/host-pid.ts";

/** Scratch space for the compiled binary and Deno's cache; removed after the file. */
const scratch = mkdtempSync(join(tmpdir(), "zot-runtimes-e2e-"));
const compiled = join(scratch, "zot");
const denoDir = join(scratch, "deno");

interface Runtime extends SourceRuntime {
  /** Built in the group's beforeAll. */
  build?: () => void;
  /**
   * Whether a TypeScript extension runs with no bun, deno or node on PATH: the compiled binary
   * carries bun (ZOT_BUN), and Deno puts itself on its children's PATH as `node`.
   */
  runsTsAlone?: boolean;
}

const sourceRuntimes: Runtime[] = [
  { name: "Node (dist/zot.mjs)", argv: [process.execPath, ZOT] },
  bunFromSource,
  { ...denoFromSource(denoDir), runsTsAlone: true },
  {
    name: "bun --compile binary",
    argv: [compiled],
    runsTsAlone: true,
    build: () => {
      execFileSync(bin("bun"), ["build", SOURCE, ...COMPILE_FLAGS, "--outfile", compiled],
        { cwd: ROOT, stdio: "pipe" });
    },
  },
];

const releaseDir = process.env.ZOT_RELEASE_DIR;
const runtimes: Runtime[] = releaseDir ? releaseRuntimes(releaseDir, scratch) : sourceRuntimes;

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// A zombie awaiting its reaper counts as gone (some container inits reap late).
const alive = processAlive;

/** Kit pids still running; waits briefly, since a SIGKILL sent at zot's exit lands a moment later. */
async function survivors(pidDir: string): Promise<number[]> {
  const pids = readdirSync(pidDir).map(hostPid);
  for (let i = 0; i < 100 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 20));
  return pids.filter(alive);
}

describe.each(runtimes)("zot on $name", (runtime) => {
  let world: World | undefined;
  let pidDir = "";

  beforeAll(() => runtime.build?.(), 60_000);
  afterAll(() => {
    if (runtime.build) rmSync(compiled, { force: true });
  });
  afterEach(async () => {
    // A failed run must not leak a kit (or its sleeping grandchild) into the next test.
    if (pidDir) for (const pid of readdirSync(pidDir).map(hostPid)) if (alive(pid)) process.kill(pid, "SIGKILL");
    pidDir = "";
    await world?.close();
    world = undefined;
  });

  async function setup(...script: Turn[]): Promise<World> {
    world = await makeWorld(script);
    pidDir = join(dirname(world.cwd), "kit-pids");
    mkdirSync(pidDir);
    return world;
  }

  function start(args: string[], env: Record<string, string> = {}) {
    const [exe, ...pre] = runtime.argv;
    return spawn(exe!, [...pre, ...args], {
      cwd: world!.cwd,
      env: { ...world!.env, ...runtime.env, KIT_PID_DIR: pidDir, NO_COLOR: "1", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
  }

  /** Runs zot to completion; `started` gets the process (to signal it). */
  function run(args: string[], started?: (child: ReturnType<typeof start>) => void, env?: Record<string, string>): Promise<ZotRun> {
    const child = start(args, env);
    started?.(child);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.stdin.end();
    return new Promise((done, fail) => {
      child.on("error", fail);
      child.on("close", (code, signal) => done({ code, signal, stdout, stderr }));
    });
  }

  it("--version prints the version", async () => {
    await setup();
    const r = await run(["--version"]);
    expect(r).toMatchObject({ code: 0, stdout: `${ZOT_VERSION}\n` });
  });

  it("-p: the model calls the kit's weather tool and bash, and the answer is printed", async () => {
    await setup(
      (req) => {
        expect(req.body.tools.map((t: { name: string }) => t.name)).toContain("weather");
        return { tool_calls: [{ name: "weather", args: { city: "Berlin" } }, { name: "bash", args: { command: "echo from-bash" } }], stop: "tool_use" };
      },
      (req) => {
        const sent = requestText(req.body);
        return { text: sent.includes("Berlin: 16°C, fog") && sent.includes("from-bash") ? "foggy, and bash ran" : "missed a result" };
      },
    );
    const r = await run(["-p", "-e", KIT, "weather in Berlin?"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("foggy, and bash ran\n");
    expect(r.code).toBe(0);
    expect(readdirSync(pidDir)).toHaveLength(1);
    expect(await survivors(pidDir)).toEqual([]);
  });

  it("the agent tool starts its child zot with the same runtime and entry", async () => {
    await setup(...routedTurns({
      PARENT: [{ tool_calls: [{ name: "agent", args: { prompt: "CHILD: run bash" } }] }, (req) => ({
        text: requestText(req.body).includes("child saw from-child-bash") ? "the child answered" : "no answer from the child",
      })],
      CHILD: [{ tool_calls: [{ name: "bash", args: { command: "echo from-child-bash" } }] },
        (req) => ({ text: requestText(req.body).includes("from-child-bash") ? "child saw from-child-bash" : "child saw nothing" })],
    }));
    const r = await run(["-p", "--no-ext", "PARENT: delegate"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("the child answered\n");
    expect(r.code).toBe(0);
  });

  it("--mode json: session first, done last, the tool's result in between", async () => {
    await setup({ tool_calls: [{ name: "weather", args: { city: "Oslo" } }], stop: "tool_use" }, { text: "Done." });
    const r = await run(["--mode", "json", "-e", KIT, "go"]);
    expect(r.code).toBe(0);
    const events = jsonLines(r.stdout);
    expect(events[0]).toMatchObject({ type: "session", protocol_version: 1 });
    expect(events.at(-1)).toEqual({ type: "done", stop: "end_turn" });
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ tool_name: "weather", status: "completed" });
    const sequences = events.filter((e) => typeof e.sequence === "number").map((e) => e.sequence);
    expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
    expect(await survivors(pidDir)).toEqual([]);
  });

  it("SIGINT during a streamed answer exits 130 and takes the extension down", async () => {
    // The answer hangs after two words until the client leaves, so only the interrupt ends it.
    let child: ReturnType<typeof start> | undefined;
    const w = await setup(() => {
      setImmediate(() => child!.kill("SIGINT"));
      return { text: "a b c d e f", hang_after: 2 };
    });
    const r = await run(["--json", "-e", KIT, "long answer please"], (c) => (child = c));
    expect(r.code).toBe(130);
    expect(jsonLines(r.stdout).at(-1)).toMatchObject({ type: "done", stop: "aborted" });
    expect(await w.server.requests[0]!.outcome).toBe("client_closed");
    expect(readdirSync(pidDir)).toHaveLength(1);
    expect(await survivors(pidDir)).toEqual([]);
  });

  it("a kit that ignores shutdown and SIGTERM is SIGKILLed at exit, with its grandchild", async () => {
    await setup({ text: "still answered" });
    // A short shutdown grace (the spec's 2 s otherwise): the kit ignores both shutdown and SIGTERM.
    const r = await run(["-p", "-e", KIT, "hi"], undefined, { KIT_STUBBORN: "1", ZOT_EXTENSION_TIMEOUTS: "shutdownGrace=300" });
    expect(r.stdout).toBe("still answered\n");
    expect(r.code).toBe(0);
    expect(readdirSync(pidDir)).toHaveLength(2);
    expect(await survivors(pidDir)).toEqual([]);
  });

  it("an installed Python extension imports zot's own Python SDK and serves the model", async () => {
    // The compiled binary has no sdk/python beside it: it must provide zot_ext.py from inside.
    await setup(
      { tool_calls: [{ name: "add_note", args: { text: "buy milk" } }], stop: "tool_use" },
      (req) => ({ text: requestText(req.body).includes("Saved note #1") ? "noted" : "not noted" }),
    );
    expect((await run(["ext", "install", "--yes", join(ROOT, "examples", "extensions", "py-notes")])).code).toBe(0);
    const r = await run(["-p", "remember to buy milk"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("noted\n");
    expect(r.code).toBe(0);
  });

  it("zot ext list --json shows an installed extension", async () => {
    const w = await setup();
    const installed = join(w.home, "extensions", "kit");
    cpSync(KIT, installed, { recursive: true });
    const r = await run(["ext", "list", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { name: "kit", version: "1.0.0", scope: "global", enabled: true, language: "javascript",
        description: expect.stringContaining("end-to-end fixture"), path: installed, shadowed: false, installed_from: null,
        full_access: true, permissions: null },
    ]);
  });

  it("zot ext doctor --json -e <kit> starts it, reports it ready, and stops it", async () => {
    await setup();
    const r = await run(["ext", "doctor", "--json", "-e", KIT]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.ok).toBe(true);
    expect(report.extensions).toEqual([expect.objectContaining({
      name: "kit", path: KIT, scope: "explicit", status: "ok", ready: "ready", commands: ["Say", "ask", "readme"],
      errors: [],
    })]);
    expect(report.extensions[0].tools.map((t: { name: string }) => t.name)).toEqual(["weather", "load_secret", "secret"]);
    expect(readdirSync(pidDir)).toHaveLength(1);
    expect(await survivors(pidDir)).toEqual([]);
  });

  it(`a scaffolded TypeScript extension ${runtime.runsTsAlone ? "runs" : "cannot run"} with no bun, deno or node on PATH`, async () => {
    const w = await setup();
    // The ts template's run.sh runs on sh builtins alone (no dirname, no env), so `sh` is all the
    // PATH needs; the binary itself is started by its full path.
    const bare = join(dirname(w.cwd), "bare-path");
    mkdirSync(bare);
    symlinkSync("/bin/sh", join(bare, "sh"));
    const env = { PATH: bare };
    const absent = execFileSync("/bin/sh", ["-c", "command -v bun deno node; true"], { env, encoding: "utf8" });
    expect(absent).toBe("");

    const scaffolded = await run(["ext", "new", "demo", "--lang", "ts"], undefined, env);
    expect(scaffolded.stderr).toBe("");
    expect(scaffolded.code).toBe(0);

    const doctor = await run(["ext", "doctor", "--json"], undefined, env);
    const report = JSON.parse(doctor.stdout);
    const demo = report.extensions.find((e: { name: string }) => e.name === "demo");
    if (!runtime.runsTsAlone) {
      // Nothing can run main.ts here (the check that the passing runtimes pass for a reason):
      // run.sh says so and exits 127.
      expect(doctor.code).toBe(1);
      expect(demo).toMatchObject({ status: "error", ready: null });
      expect(readFileSync(demo.log_path, "utf8")).toContain("demo: cannot start main.ts: no TypeScript runtime on PATH");
      return;
    }
    expect(demo).toMatchObject({ status: "ok", ready: "ready", commands: ["demo"], errors: [] });
    expect(report.ok).toBe(true);
    expect(doctor.code).toBe(0);

    const r = await run(["-p", "/demo hi"], undefined, env);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("Hello from demo! You said: hi\n");
    expect(r.code).toBe(0);
  });
});
