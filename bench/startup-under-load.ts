// Startup under load and tool-call throughput, as ratios to raw floors measured in the same run:
//   1. 20 extensions (Python quick-start, plain Node, sh; one third each) discovered and ready
//      through zot's real extension host, against the floor: the same 20 children spawned in
//      parallel by a minimal host that only answers hello with hello_ack and waits for ready.
//   2. The same 20 as legacy extensions (they never send ready: auto-ready), against that floor.
//   3. Tool calls with 64 in flight through the host, against the raw pipe with 64 in flight, in
//      alternating rounds (a fresh child each), as medians.
// Interpreters are spawned by absolute path in the floor and the extensions alike, so a
// version-manager shim (pyenv's python3 costs up to a second per start) hides nothing.
// A benchmark, not a test: it prints numbers and asserts no speed.
//   node_modules/.bin/bun bench/startup-under-load.ts [rounds=10] [calls=20000]
import { spawn, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { EventBus } from "../lib/agent/event-bus.ts";
import { ExtensionHost } from "../lib/extensions/host/host.ts";
import { pathsUnder } from "../lib/paths.ts";
import { rawPipe, zotHost, type Session } from "./contenders.ts";
import { percentile } from "./timing.ts";
import { extensionDrivers } from "../lib/extensions/runtime/drivers.ts";

const EXTENSIONS = 20;
const IN_FLIGHT = 64;
const THROUGHPUT_ROUNDS = 5;

function countArg(index: number, name: string, fallback: number): number {
  const text = process.argv[index];
  const n = Number(text ?? fallback);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(text)}`);
  return n;
}
let autoReadied = 0;
const ROUNDS = countArg(2, "rounds", 10);
const CALLS = countArg(3, "calls", 20_000);

const fixtures = join(import.meta.dirname, "fixtures", "startup");
/** The real interpreter binaries, never a shim. */
const PYTHON = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
const NODE = process.env.NODE ?? execFileSync("node", ["-p", "process.execPath"], { encoding: "utf8" }).trim();
const SH = "/bin/sh";

interface Child {
  name: string;
  exec: string;
  args: string[];
}

function population(legacy: boolean): Child[] {
  const kinds: Array<[string, string]> = [[PYTHON, "ext.py"], [NODE, "ext.mjs"], [SH, "ext.sh"]];
  return Array.from({ length: EXTENSIONS }, (_, i) => {
    const [exec, script] = kinds[i % kinds.length]!;
    const name = `bench-${i}`;
    return { name, exec, args: [join(fixtures, script), name, ...(legacy ? ["legacy"] : [])] };
  });
}

/** A $ZOT_HOME whose extensions folder holds the population. */
function homeWith(children: Child[]): string {
  const home = mkdtempSync(join(tmpdir(), "zot-bench-startup-"));
  for (const c of children) {
    const dir = join(home, "extensions", c.name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: c.name, version: "1.0.0", exec: c.exec, args: c.args }));
  }
  return home;
}

/** The floor: spawn every child at once, answer hello with hello_ack, wait for every ready. */
async function floorStartup(children: Child[]): Promise<number> {
  const begin = performance.now();
  const procs = children.map((c) => spawn(c.exec, c.args, { stdio: ["pipe", "pipe", "ignore"] }));
  await Promise.all(procs.map((p) => new Promise<void>((ready, fail) => {
    p.once("error", fail);
    createInterface({ input: p.stdout! }).on("line", (line) => {
      const frame = JSON.parse(line) as { type: string };
      if (frame.type === "hello") p.stdin!.write(`${JSON.stringify({ type: "hello_ack", protocol_version: 1, cwd: "/" })}\n`);
      else if (frame.type === "ready") ready();
    });
  })));
  const elapsed = performance.now() - begin;
  await Promise.all(procs.map((p) => new Promise((exited) => {
    p.once("exit", exited);
    p.kill();
  })));
  return elapsed;
}

/** zot's host: discovery, spawn, handshake, registration, until every extension is ready. */
async function zotStartup(home: string, expect: "ready" | "auto"): Promise<number> {
  const begin = performance.now();
  const host = await ExtensionHost.start({
    drivers: extensionDrivers, cwd: home, paths: pathsUnder(home), discover: true,
    agent: { bus: new EventBus({ id: "bench", cwd: home }), info: () => ({ provider: "none", model: "none" }) },
    interactive: false,
  });
  const elapsed = performance.now() - begin;
  const reports = host.reports();
  await host.shutdown();
  const failed = reports.filter((r) => r.status !== "ok" || r.commands.length !== 1);
  if (reports.length !== EXTENSIONS || failed.length > 0) throw new Error(`not all ${EXTENSIONS} extensions loaded: ${JSON.stringify(failed)}`);
  // Under heavy load a slow extension may be auto-readied before its ready arrives: count it.
  if (expect === "ready") autoReadied += reports.filter((r) => r.ready !== "ready").length;
  return elapsed;
}

/** Calls per second with `IN_FLIGHT` calls outstanding at all times. */
async function throughput(session: Session): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < CALLS) await session.call(next++);
  };
  for (let i = 0; i < 200; i++) await session.call(CALLS + i); // warm-up
  const begin = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return CALLS / ((performance.now() - begin) / 1000);
}

const ready = population(false);
const legacy = population(true);
const readyHome = homeWith(ready);
const legacyHome = homeWith(legacy);
const echoHome = mkdtempSync(join(tmpdir(), "zot-bench-echo-"));
try {
  const times = { floor: [] as number[], zot: [] as number[], legacy: [] as number[] };
  // Round-robin, so background load drifting over the run hits every case alike.
  for (let round = 0; round < ROUNDS; round++) {
    times.floor.push(await floorStartup(ready));
    times.zot.push(await zotStartup(readyHome, "ready"));
    times.legacy.push(await zotStartup(legacyHome, "auto"));
  }
  for (const t of Object.values(times)) t.sort((a, b) => a - b);
  const p50 = (t: number[]) => percentile(t, 0.5);
  const row = (label: string, t: number[]) =>
    console.log(`${label.padEnd(34)}${p50(t).toFixed(1).padStart(9)}${percentile(t, 0.9).toFixed(1).padStart(9)}` +
      `${`${(p50(t) / p50(times.floor)).toFixed(2)}x`.padStart(11)}`);
  console.log(`Startup of ${EXTENSIONS} extensions (Python ${PYTHON}, Node ${NODE}, ${SH}), ${ROUNDS} rounds`);
  console.log(`${"".padEnd(34)}${"p50 ms".padStart(9)}${"p90 ms".padStart(9)}${"p50/floor".padStart(11)}`);
  row("raw hello/hello_ack/ready (floor)", times.floor);
  row("zot host, ready", times.zot);
  row("zot host, legacy (auto-ready)", times.legacy);
  if (autoReadied > 0) console.log(`(${autoReadied} of ${EXTENSIONS * ROUNDS} ready-sending starts were auto-readied before their ready arrived)`);

  // Alternating rounds, a fresh child each: one pair of runs swings by ±20 % with scheduling.
  const rates = { floor: [] as number[], zot: [] as number[], ratio: [] as number[] };
  for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
    const floorSession = await rawPipe.start();
    const floorRate = await throughput(floorSession).finally(() => floorSession.close());
    const zotSession = await zotHost(echoHome).start();
    const zotRate = await throughput(zotSession).finally(() => zotSession.close());
    rates.floor.push(floorRate);
    rates.zot.push(zotRate);
    rates.ratio.push(zotRate / floorRate);
  }
  for (const r of Object.values(rates)) r.sort((a, b) => a - b);
  console.log(`\nTool calls with ${IN_FLIGHT} in flight, ${CALLS} calls, ${THROUGHPUT_ROUNDS} alternating rounds (medians)`);
  console.log(`${"raw pipe (floor)".padEnd(34)}${Math.round(p50(rates.floor)).toString().padStart(9)} calls/s`);
  console.log(`${"zot extension host".padEnd(34)}${Math.round(p50(rates.zot)).toString().padStart(9)} calls/s` +
    `${`${p50(rates.ratio).toFixed(2)}x`.padStart(11)} (rounds ${rates.ratio[0]!.toFixed(2)}x–${rates.ratio.at(-1)!.toFixed(2)}x)`);
} finally {
  for (const home of [readyHome, legacyHome, echoHome]) rmSync(home, { recursive: true, force: true });
}
