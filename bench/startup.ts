// What one zot invocation costs from a shell loop: the compiled binary's wall time and peak RSS
// for a one-shot prompt against the scripted model server, as ratios to `zot --version` (the
// runtime's own start, the floor), all measured in the same run with the cases interleaved.
// A benchmark, not a test: it prints numbers and asserts no speed. Build the binary first.
//   node_modules/.bin/bun build.ts && node_modules/.bin/bun bench/startup.ts [runs=15] [binary…]
// Under bun it also measures, for reference, an empty compiled program (Bun's own start) and two
// compiled programs that make only the run's one streamed request (bench/fixtures/startup).
// Several binaries (default dist/zot) are measured in the same round-robin, each against its own
// `--version`, which is how a change is compared with the build before it.
// Contenders, in the same round-robin and against the same server, when given: the Go zot
// (ZOT_GO=/path/to/its binary; bench/README.md says how to build it offline) and Claude Code, pi
// and opencode installed from npm in a folder (PEERS=/that/folder). Each runs the same one-shot
// json prompt; the table gives their medians and their ratio to zot's bare json run.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { COMPILE_FLAGS } from "../release/compile-flags.ts";
import { startModelServer } from "../test/support/model-server.ts";
import { benchToolName, writeExtensions } from "./startup-extensions.ts";
import { percentile } from "./timing.ts";

const text = process.argv[2];
const RUNS = Number(text ?? 15);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`runs must be a positive integer, got ${JSON.stringify(text)}`);

const BINARIES = process.argv.length > 3 ? process.argv.slice(3).map((b) => resolve(b)) : [join(import.meta.dirname, "..", "dist", "zot")];
for (const binary of BINARIES) {
  if (!existsSync(binary)) throw new Error(`no compiled zot at ${binary}: run \`node_modules/.bin/bun build.ts\` first`);
}

/** An interpreter's own binary, by absolute path: a version-manager shim costs up to a second per start. */
function realBinary(command: string, args: string[]): string {
  const r = spawnSync(command, args, { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${command} is needed for the extension runs`);
  return r.stdout.trim();
}
const PYTHON = process.env.PYTHON ?? realBinary("python3", ["-c", "import sys; print(sys.executable)"]);
/** Times each run: wall, peak RSS and CPU from wait4, without its own start (bench/fixtures/rusage.py). */
const RUSAGE = join(import.meta.dirname, "fixtures", "rusage.py");
const NODE = process.env.NODE ?? (process.versions.bun ? realBinary("node", ["-p", "process.execPath"]) : process.execPath);

const work = mkdtempSync(join(tmpdir(), "zot-startup-"));
const server = await startModelServer();

interface Case {
  label: string;
  binary: string;
  args: string[];
  /** Variables besides PATH, HOME and zot's own (a contender's home, key and server settings). */
  env?: (home: string) => Record<string, string>;
  /** Reached the model: one scripted reply is queued before each run. */
  prompts: boolean;
  /** Model requests one run makes, when more than one (opencode asks for a session title too). */
  requests?: number;
  home: string;
  check(stdout: string): void;
}

function homeFor(name: string): string {
  const home = join(work, name);
  mkdirSync(home, { recursive: true });
  return home;
}

const REPLY = "all good";
function jsonDone(stdout: string): void {
  const lines = stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; stop?: string; text?: string });
  const done = lines.at(-1);
  if (done?.type !== "done" || done.stop !== "end_turn") throw new Error(`json run did not end with done/end_turn:\n${stdout}`);
}

/** A json-mode one-shot with `count` extensions; `extra` flags (--no-sandbox: no PID namespace for them). */
function jsonCase(binary: string, count: number, extra: string[] = []): Case {
  const home = homeFor(`json-${count}${extra.join("")}`);
  const dirs = writeExtensions(join(home, "ext"), count, { python: PYTHON, node: NODE });
  return {
    label: `${count === 0 ? "json, no extensions" : `json, ${count} extensions`}${extra.length ? ` ${extra.join(" ")}` : ""}`,
    binary,
    args: ["--mode", "json", "--no-session", ...extra, ...dirs.flatMap((d) => ["-e", d]), "review this"],
    prompts: true,
    home,
    check(stdout) {
      jsonDone(stdout);
      // Every extension's tool reached the model, so none was skipped or still starting.
      const sent = new Set((server.requests.at(-1)?.body?.tools ?? []).map((t: { name: string }) => t.name));
      const missing = dirs.filter((_, i) => !sent.has(benchToolName(i)));
      if (missing.length > 0) throw new Error(`${missing.length} of ${count} extensions did not load:\n${stdout}`);
    },
  };
}

const floorCase = (binary: string): Case => ({
  label: "zot --version (floor)",
  binary,
  args: ["--version"],
  prompts: false,
  home: homeFor("version"),
  check(stdout) {
    if (!/^\d+\.\d+\.\d+/.test(stdout)) throw new Error(`--version printed ${JSON.stringify(stdout)}`);
  },
});
const printCase = (binary: string): Case => ({
  label: "-p print, no extensions",
  binary,
  args: ["-p", "--no-session", "review this"],
  prompts: true,
  home: homeFor("print"),
  check(stdout) {
    if (stdout.trim() !== REPLY) throw new Error(`-p printed ${JSON.stringify(stdout)}`);
  },
});
// For reference, programs compiled the way build.ts compiles zot: an empty one (Bun's own start;
// `zot --version` is the floor the ratios use, but it also pays for loading zot's entry chunk), and
// two that make the one-shot run's single streamed request and print it as NDJSON, with the
// runtime's fetch and with the official SDK: the least any one-shot run can cost.
function referenceCase(label: string, source: string, prompts: boolean): Case {
  const name = label.replace(/\W+/g, "-");
  const binary = join(work, `${name}.bin`);
  const built = spawnSync(process.execPath, ["build", source, ...COMPILE_FLAGS, `--outfile=${binary}`], { encoding: "utf8" });
  if (built.status !== 0) throw new Error(`could not compile ${source} (run the benchmark with bun):\n${built.stderr}`);
  return prompts
    ? { label, binary, args: [], prompts, home: homeFor(name), check: jsonDone }
    : { ...floorCase(binary), label };
}
function referenceCases(): Case[] {
  const empty = join(work, "empty.ts");
  writeFileSync(empty, "console.log('0.0.0');\n");
  const fixtures = join(import.meta.dirname, "fixtures", "startup");
  return [
    referenceCase("bun, empty program", empty, false),
    referenceCase("bun, one fetch request", join(fixtures, "one-request-fetch.ts"), true),
    referenceCase("bun, one SDK request", join(fixtures, "one-request-sdk.ts"), true),
  ];
}
const references = process.versions.bun ? referenceCases() : [];
const contenders = contenderCases();
// EXTENSIONS=0 leaves the runs with extensions out: their processes load the machine around the
// bare runs, which is what a comparison with the contenders wants to be without.
const withExtensions = process.env.EXTENSIONS !== "0";
const suites = BINARIES.map((binary) => [floorCase(binary), jsonCase(binary, 0),
  ...(withExtensions ? [jsonCase(binary, 5), jsonCase(binary, 5, ["--no-sandbox"]), jsonCase(binary, 20)] : []), printCase(binary)]);
const cases = [...references, ...suites.flat(), ...contenders];

/** A contender's one-shot run counts when its stdout shows the scripted reply. */
function showsReply(stdout: string): void {
  if (!stdout.includes(REPLY.split(" ")[0]!)) throw new Error(`no reply in the output:\n${stdout.slice(-2000)}`);
}

/** The Go zot and the TypeScript peers, where given (ZOT_GO, PEERS). */
function contenderCases(): Case[] {
  const out: Case[] = [];
  const key = { ANTHROPIC_API_KEY: "bench" };
  if (process.env.ZOT_GO) {
    out.push({ label: "Go zot --json", binary: resolve(process.env.ZOT_GO), args: ["--json", "--provider", "anthropic", "--base-url", server.url, "review this"],
      prompts: true, home: homeFor("go"), env: () => key, check: showsReply });
  }
  const peers = process.env.PEERS ? resolve(process.env.PEERS) : undefined;
  if (peers) {
    const bin = (name: string) => join(peers, "node_modules", ".bin", name);
    if (existsSync(bin("claude"))) {
      out.push({ label: "Claude Code -p stream-json", binary: bin("claude"), args: ["-p", "--output-format", "stream-json", "--verbose", "review this"],
        prompts: true, home: homeFor("claude"), env: () => ({ ...key, ANTHROPIC_BASE_URL: server.url }), check: showsReply });
    }
    if (existsSync(bin("pi"))) {
      const home = homeFor("pi");
      mkdirSync(join(home, ".pi", "agent"), { recursive: true });
      writeFileSync(join(home, ".pi", "agent", "models.json"), JSON.stringify({ providers: { anthropic: { baseUrl: server.url, apiKey: "bench" } } }));
      out.push({ label: "pi --print --mode json", binary: bin("pi"), args: ["--print", "--mode", "json", "--no-session", "review this"],
        prompts: true, home, env: () => key, check: showsReply });
    }
    if (existsSync(bin("opencode"))) {
      const home = homeFor("opencode");
      mkdirSync(join(home, "project"), { recursive: true });
      writeFileSync(join(home, "project", "opencode.json"), JSON.stringify({ provider: { anthropic: { options: { baseURL: `${server.url}/v1`, apiKey: "bench" } } } }));
      out.push({ label: "opencode run --format json", binary: bin("opencode"), args: ["run", "--format", "json", "review this"],
        prompts: true, requests: 2, home, env: () => key, check: showsReply });
    }
  }
  return out;
}

/** Wall ms, peak RSS, and CPU ms (user + system, which background load disturbs far less than wall time). */
interface Sample { ms: number; rssKb: number; cpuMs: number }

/** One run under RUSAGE: wall clock from spawn to exit, peak RSS and CPU as wait4 reports them. */
function runOnce(c: Case, rssFile: string): Promise<Sample> {
  if (c.prompts) for (let i = 0; i < (c.requests ?? 1); i++) server.push({ text: REPLY });
  const project = join(c.home, "project");
  mkdirSync(project, { recursive: true });
  return new Promise((done, fail) => {
    const child = spawn(PYTHON, [RUSAGE, rssFile, c.binary, ...c.args], {
      cwd: project,
      env: { PATH: process.env.PATH, HOME: c.home, ZOT_HOME: c.home, ZOT_PROVIDER: "anthropic", ZOT_BASE_URL: server.url, ...c.env?.(c.home) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("error", fail);
    child.on("close", (code) => {
      try {
        if (code !== 0) throw new Error(`${c.label}: exit ${code}\n${stderr}${stdout.slice(-2000)}`);
        // A reply left over would answer the next run's request: every case must use what it was given.
        if (server.pending > 0) throw new Error(`${c.label}: ${server.pending} scripted replies left unused`);
        c.check(stdout);
        const [ms, rssKb, user, system] = readFileSync(rssFile, "utf8").trim().split(" ").map(Number);
        done({ ms: ms!, rssKb: rssKb!, cpuMs: user! + system! });
      } catch (err) {
        fail(err);
      }
    });
  });
}

const msText = (ms: number) => ms.toFixed(1).padStart(9);
const mbText = (kb: number) => (kb / 1024).toFixed(1).padStart(9);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`.padStart(9);

try {
  console.log(`compiled zot; extensions: python ${PYTHON}, node ${NODE}; ${RUNS} runs each, round-robin after one warm-up round`);
  const samples = new Map<Case, Sample[]>(cases.map((c) => [c, []]));
  const rssFile = join(work, "rss");
  for (let round = -1; round < RUNS; round++) {
    for (const c of cases) {
      const s = await runOnce(c, rssFile);
      if (round >= 0) samples.get(c)!.push(s);
    }
  }
  const median = (c: Case, pick: (s: Sample) => number) => percentile(samples.get(c)!.map(pick).sort((a, b) => a - b), 0.5);
  // Each round runs every case once, so a round's ratio of two cases sees the same load on both:
  // their middle half says whether a difference between builds is more than the machine's noise.
  const roundRatios = (c: Case, base: Case, pick: (s: Sample) => number) => {
    const ratios = samples.get(c)!.map((s, round) => pick(s) / pick(samples.get(base)![round]!)).sort((a, b) => a - b);
    return `${percentile(ratios, 0.5).toFixed(2)}x (${percentile(ratios, 0.25).toFixed(2)}-${percentile(ratios, 0.75).toFixed(2)})`.padStart(20);
  };
  const floorMs = median(suites[0]![0]!, (s) => s.ms);
  const floorKb = median(suites[0]![0]!, (s) => s.rssKb);
  if (references.length > 0) {
    console.log(`\nreferences, against the first zot's --version`);
    console.log(`${"".padEnd(26)}${"wall ms".padStart(9)}${"÷ floor".padStart(9)}${"RSS MB".padStart(9)}${"÷ floor".padStart(9)}${"CPU ms".padStart(9)}`);
    for (const c of references) {
      const ms = median(c, (s) => s.ms);
      const kb = median(c, (s) => s.rssKb);
      console.log(`${c.label.padEnd(26)}${msText(ms)}${ratio(ms, floorMs)}${mbText(kb)}${ratio(kb, floorKb)}${msText(median(c, (s) => s.cpuMs))}`);
    }
  }
  for (const [index, suite] of suites.entries()) {
    const floor = suite[0]!;
    const first = suites[0]!;
    const floorMs = median(floor, (s) => s.ms);
    const floorKb = median(floor, (s) => s.rssKb);
    console.log(`\n${floor.binary}`);
    const floorCpu = median(floor, (s) => s.cpuMs);
    console.log(`${"".padEnd(26)}${"wall ms".padStart(9)}${"÷ floor".padStart(9)}${"RSS MB".padStart(9)}${"÷ floor".padStart(9)}` +
      `${"CPU ms".padStart(9)}${"÷ floor".padStart(9)}${index > 0 ? `${"wall ÷ 1st".padStart(20)}${"CPU ÷ 1st".padStart(20)}` : ""}`);
    for (const [i, c] of suite.entries()) {
      const ms = median(c, (s) => s.ms);
      const kb = median(c, (s) => s.rssKb);
      const cpu = median(c, (s) => s.cpuMs);
      // Against the same case of the first binary: how a change compares with the build before it.
      const vsFirst = index > 0 ? `${roundRatios(c, first[i]!, (s) => s.ms)}${roundRatios(c, first[i]!, (s) => s.cpuMs)}` : "";
      console.log(`${c.label.padEnd(26)}${msText(ms)}${ratio(ms, floorMs)}${mbText(kb)}${ratio(kb, floorKb)}${msText(cpu)}${ratio(cpu, floorCpu)}${vsFirst}`);
    }
  }
  if (contenders.length > 0) {
    const zotJson = suites[0]![1]!;
    const [zMs, zCpu, zKb] = [median(zotJson, (s) => s.ms), median(zotJson, (s) => s.cpuMs), median(zotJson, (s) => s.rssKb)];
    console.log(`\none-shot json prompt, against zot's (${msText(zMs).trim()} ms wall, ${msText(zCpu).trim()} ms CPU, ${mbText(zKb).trim()} MB)`);
    console.log(`${"".padEnd(28)}${"wall ms".padStart(9)}${"CPU ms".padStart(9)}${"RSS MB".padStart(9)}${"wall÷zot".padStart(10)}${"CPU÷zot".padStart(10)}${"RSS÷zot".padStart(10)}`);
    for (const c of contenders) {
      const [ms, cpu, kb] = [median(c, (s) => s.ms), median(c, (s) => s.cpuMs), median(c, (s) => s.rssKb)];
      console.log(`${c.label.padEnd(28)}${msText(ms)}${msText(cpu)}${mbText(kb)}${ratio(ms, zMs).padStart(10)}${ratio(cpu, zCpu).padStart(10)}${ratio(kb, zKb).padStart(10)}`);
    }
  }
  console.log("(medians; wall is spawn to exit; RSS is the process's peak and CPU its user + system time, as wait4 reports them;"
    + " ÷ 1st is the median of each round's ratio, with the middle half of them in brackets)");
} finally {
  await server.close();
  rmSync(work, { recursive: true, force: true });
}
