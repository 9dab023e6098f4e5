// Whether starting sandboxed extensions blocks the event loop: a 1 ms ticker runs while a host
// starts two sandboxed Node extensions, and the longest gap between its ticks is the longest the
// process could not do anything else (read the REPL's input, connect to the model). The first
// sandboxed start of a process probes bubblewrap once; each "probe" round points the host at a
// fresh link to bwrap (the probe is remembered per path), each "probed" round reuses one, so the
// difference between the rows is what the probe costs the event loop.
//   node_modules/.bin/bun bench/sandbox-probe.ts [rounds=10]
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventBus } from "../lib/agent/event-bus.ts";
import { findOnPath } from "../lib/extensions/runtime/exec-resolve.ts";
import { ExtensionHost } from "../lib/extensions/host/host.ts";
import { pathsUnder } from "../lib/paths.ts";
import { percentile } from "./timing.ts";
import { extensionDrivers } from "../lib/extensions/runtime/drivers.ts";

const text = process.argv[2];
const ROUNDS = Number(text ?? 10);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`rounds must be a positive integer, got ${JSON.stringify(text)}`);
const BWRAP = findOnPath("bwrap");
if (!BWRAP) throw new Error("bubblewrap (bwrap) is not installed");

const NODE_SOURCE = `import { createInterface } from "node:readline";
const name = process.argv[2];
const send = (frame) => process.stdout.write(JSON.stringify(frame) + "\\n");
send({ type: "hello", name, version: "1.0.0", capabilities: ["tools"] });
createInterface({ input: process.stdin }).on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "hello_ack") send({ type: "ready" });
  else if (msg.type === "shutdown") { send({ type: "shutdown_ack" }); process.exit(0); }
});
`;

const root = mkdtempSync(join(tmpdir(), "zot-bench-sandbox-"));
const paths = pathsUnder(join(root, "home"));
const cwd = join(root, "project");
mkdirSync(cwd, { recursive: true });
for (const name of ["sandboxed-a", "sandboxed-b"]) {
  const dir = join(paths.extensions, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "ext.mjs"), NODE_SOURCE);
  writeFileSync(join(dir, "extension.json"), JSON.stringify({
    name, version: "1.0.0", exec: process.execPath, args: ["ext.mjs", name], permissions: { network: "none" },
  }));
}

/** One host start with `bwrap`: its wall time and the event loop's longest gap meanwhile. */
async function startOnce(bwrap: string): Promise<{ wallMs: number; gapMs: number }> {
  let last = performance.now();
  let gap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 1);
  const begin = performance.now();
  const host = await ExtensionHost.start({
    drivers: extensionDrivers, cwd, paths, interactive: true, sandbox: { enabled: true, options: { bwrap } },
    agent: { bus: new EventBus({ id: "bench", cwd }), info: () => ({ provider: "bench", model: "bench" }) },
  });
  const end = performance.now();
  clearInterval(ticker);
  const gapMs = Math.max(gap, end - last);
  const failed = host.reports().filter((r) => r.errors.length > 0);
  await host.shutdown();
  if (failed.length > 0) throw new Error(`an extension did not start: ${failed.flatMap((r) => r.errors).join("; ")}`);
  return { wallMs: end - begin, gapMs };
}

const probed = join(root, "bwrap-probed");
symlinkSync(BWRAP, probed);
await startOnce(probed); // warm-up: the probed link's probe, module loading
const rows = { probe: [] as Array<{ wallMs: number; gapMs: number }>, probed: [] as Array<{ wallMs: number; gapMs: number }> };
try {
  for (let i = 0; i < ROUNDS; i++) {
    const fresh = join(root, `bwrap-${i}`);
    symlinkSync(BWRAP, fresh);
    rows.probe.push(await startOnce(fresh));
    rows.probed.push(await startOnce(probed));
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

const ms = (n: number) => `${n.toFixed(1)} ms`;
console.log(`${ROUNDS} rounds, two sandboxed Node extensions per start, 1 ms ticker`);
console.log("| start | longest tick gap p50 | p90 | max | host start p50 |");
console.log("|---|---:|---:|---:|---:|");
for (const [label, samples] of Object.entries(rows)) {
  const gaps = samples.map((s) => s.gapMs).sort((a, b) => a - b);
  const walls = samples.map((s) => s.wallMs).sort((a, b) => a - b);
  console.log(`| ${label === "probe" ? "first with this bwrap (probes)" : "bwrap already probed"} | ${ms(percentile(gaps, 0.5))} | `
    + `${ms(percentile(gaps, 0.9))} | ${ms(gaps.at(-1)!)} | ${ms(percentile(walls, 0.5))} |`);
}
