// Extension tool-call round trip through zot's real extension host, as a ratio to the raw-pipe
// floor (a child that reads a JSON line and writes one back) measured in the same run.
//   node_modules/.bin/bun bench/tool-roundtrip.ts [calls]
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { EventBus } from "../lib/agent/event-bus.ts";
import { ExtensionHost } from "../lib/extensions/host.ts";
import { pathsUnder } from "../lib/paths.ts";

const CALLS = Number(process.argv[2] ?? 5000);
const fixtures = join(import.meta.dirname, "fixtures");

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

async function timeCalls(call: (i: number) => Promise<void>): Promise<number[]> {
  for (let i = 0; i < 200; i++) await call(i); // warm up
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const start = performance.now();
    await call(i);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b);
}

async function rawPipe(): Promise<number[]> {
  const child = spawn(process.env.NODE ?? "node", [join(fixtures, "raw-echo.mjs")], { stdio: ["pipe", "pipe", "inherit"] });
  const pending = new Map<number, () => void>();
  createInterface({ input: child.stdout }).on("line", (line) => pending.get(JSON.parse(line).id)?.());
  try {
    return await timeCalls((i) => new Promise<void>((done) => {
      pending.set(i, done);
      child.stdin.write(`${JSON.stringify({ id: i, text: `call ${i}` })}\n`);
    }));
  } finally {
    child.kill();
  }
}

async function throughHost(): Promise<number[]> {
  const home = mkdtempSync(join(tmpdir(), "zot-bench-"));
  const bus = new EventBus({ id: "bench", cwd: home });
  const host = await ExtensionHost.start({
    cwd: home, paths: pathsUnder(home), explicit: [join(fixtures, "echo")], discover: false, bus,
    info: () => ({ provider: "none", model: "none" }), interactive: false,
  });
  try {
    const tool = host.tools().find((t) => t.name === "echo");
    if (!tool) throw new Error(`the echo extension did not load: ${JSON.stringify(host.reports())}`);
    const signal = new AbortController().signal;
    return await timeCalls(async (i) => {
      const out = await tool.execute({ text: `call ${i}` }, { cwd: home, signal });
      if (out.is_error) throw new Error(JSON.stringify(out.content));
    });
  } finally {
    await host.shutdown();
    rmSync(home, { recursive: true, force: true });
  }
}

const raw = await rawPipe();
const zot = await throughHost();
const row = (name: string, t: number[]) =>
  `${name.padEnd(22)} p50 ${(percentile(t, 0.5) * 1000).toFixed(0).padStart(6)} µs   p99 ${(percentile(t, 0.99) * 1000).toFixed(0).padStart(6)} µs`;
console.log(`${CALLS} sequential tool calls`);
console.log(row("raw pipe (floor)", raw));
console.log(row("zot extension host", zot));
console.log(`ratio p50 ${(percentile(zot, 0.5) / percentile(raw, 0.5)).toFixed(2)}x   p99 ${(percentile(zot, 0.99) / percentile(raw, 0.99)).toFixed(2)}x`);
