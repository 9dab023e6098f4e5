// Extension tool calls through zot's real extension host, the official MCP SDK, zot's MCP bridge
// (the same SDK echo server loaded as an MCP extension) and `zot mcp serve` (an SDK client
// calling zot's echo extension through zot), as ratios to the raw-pipe floor (a child that reads
// a JSON line and writes one back), all measured in the same run: N sequential calls on a warm
// session, and cold starts (spawn to first tool result). The WebSocket row is zot's host with the
// same echo at a loopback URL, against the stdio row. A benchmark, not a test: it prints
// numbers and asserts no speed. The bridge row is left out when the host loads no MCP extension.
// The MCP rows are then measured again in alternating rounds (fresh sessions, rotating order) and
// their median ratio to the MCP SDK is the figure reported for them.
//   node_modules/.bin/bun bench/tool-roundtrip.ts [calls=5000] [cold starts=15] [rounds=7]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mcpSdk, rawPipe, zotHost, type Contender } from "./contenders.ts";
import { BridgeUnavailable, zotCommand, zotMcpBridge, zotMcpServe } from "./mcp-contenders.ts";
import { alternatingRounds, median as medianOf } from "./rounds.ts";
import { zotWebSocket } from "./websocket-contender.ts";
import { percentile, timeCalls, timeColdStart } from "./timing.ts";

function countArg(index: number, name: string, fallback: number): number {
  const text = process.argv[index];
  const n = Number(text ?? fallback);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(text)}`);
  return n;
}
const CALLS = countArg(2, "calls", 5000);
const COLD_RUNS = countArg(3, "cold starts", 15);
const ROUNDS = countArg(4, "rounds", 7);
/** Calls per contender and round: a fifth of the long run's, at least 500. */
const ROUND_CALLS = Math.max(500, Math.round(CALLS / 5));

const home = mkdtempSync(join(tmpdir(), "zot-bench-"));
const floor = rawPipe;
const zot = zotHost(home);
const mcp = mcpSdk({ listTools: false });
const mcpListed = mcpSdk({ listTools: true });
const bridge = zotMcpBridge(home);
const serve = zotMcpServe(home);
const socket = await zotWebSocket(home);

/** Whether this build's host bridges MCP servers (one trial start). */
async function bridgeAvailable(): Promise<boolean> {
  try {
    await (await bridge.start()).close();
    return true;
  } catch (err) {
    if (!(err instanceof BridgeUnavailable)) throw err;
    console.log(`zot MCP bridge: left out, this build's host does not load MCP extensions (${err.message.slice(0, 160)})`);
    return false;
  }
}

async function warmCalls(contender: Contender): Promise<number[]> {
  const session = await contender.start();
  try {
    return await timeCalls((i) => session.call(i), CALLS);
  } finally {
    await session.close();
  }
}

/** Round-robin, so background load drifting over the run hits every contender alike. */
async function coldStarts(contenders: Contender[]): Promise<Map<Contender, number[]>> {
  const times = new Map(contenders.map((c) => [c, [] as number[]]));
  for (let run = 0; run < COLD_RUNS; run++) {
    for (const c of contenders) {
      times.get(c)!.push(await timeColdStart(() => c.start(), (s) => s.call(0), (s) => s.close()));
    }
  }
  for (const t of times.values()) t.sort((a, b) => a - b);
  return times;
}

const µs = (ms: number) => (ms * 1000).toFixed(0).padStart(8);
const msText = (ms: number) => ms.toFixed(1).padStart(8);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`.padStart(8);

function printTable(title: string, unit: string, format: (ms: number) => string,
  rows: Array<[Contender, number[]]>, base: number[], high: number, highName: string): void {
  console.log(`\n${title}`);
  console.log(`${"".padEnd(24)}${`p50 ${unit}`.padStart(8)}${`${highName} ${unit}`.padStart(10)}` +
    `${"p50/floor".padStart(11)}${`${highName}/floor`.padStart(11)}`);
  for (const [c, t] of rows) {
    console.log(`${c.label.padEnd(24)}${format(percentile(t, 0.5))}  ${format(percentile(t, high))}` +
      `   ${ratio(percentile(t, 0.5), percentile(base, 0.5))}   ${ratio(percentile(t, high), percentile(base, high))}`);
  }
}

try {
  const runtime = process.versions.bun ? `bun ${process.versions.bun}` : `node ${process.version}`;
  console.log(`host process: ${runtime}; children: node (raw, MCP: ${process.env.NODE ?? "node on PATH"}; zot echo: its shebang); ` +
    `zot mcp serve: ${zotCommand().describe}`);
  const withBridge = await bridgeAvailable();
  const mcpRows = withBridge ? [bridge, serve] : [serve];

  const warm = new Map<Contender, number[]>();
  for (const c of [floor, zot, socket, mcp, ...mcpRows]) warm.set(c, await warmCalls(c));
  printTable(`${CALLS} sequential tool calls on a warm session (after 200 warm-up calls)`, "µs", µs,
    [...warm], warm.get(floor)!, 0.99, "p99");
  const against = (a: Contender, b: Contender, name: string) => {
    const [at, bt] = [warm.get(a)!, warm.get(b)!];
    console.log(`${name}: p50 ${ratio(percentile(at, 0.5), percentile(bt, 0.5)).trim()}   ` +
      `p99 ${ratio(percentile(at, 0.99), percentile(bt, 0.99)).trim()}`);
  };
  against(zot, mcp, "zot / MCP");
  against(socket, zot, "zot WebSocket extension / zot stdio extension (goal: at most 1.3x at p50)");
  if (withBridge) against(bridge, mcp, "zot MCP bridge / MCP SDK (goal: at most 1.2x)");
  against(serve, mcp, "MCP SDK → zot mcp serve / MCP SDK (two hops: client → zot → extension)");

  const rounds = await alternatingRounds(mcp, mcpRows, ROUNDS, ROUND_CALLS);
  console.log(`\n${ROUNDS} alternating rounds of ${ROUND_CALLS} calls (fresh sessions, rotating order): p50 / MCP SDK p50 of the same round`);
  for (const c of mcpRows) {
    const r = rounds.ratios.get(c)!;
    const goal = c === bridge ? " (goal: at most 1.2x)" : " (goal: at most 2x)";
    console.log(`${c.label.padEnd(24)}median ${ratio(medianOf(r), 1).trim()}${goal}   rounds ${r.map((x) => x.toFixed(2)).join(" ")}`);
  }

  const cold = await coldStarts([floor, zot, socket, mcp, mcpListed, ...mcpRows]);
  printTable(`cold start: spawn to first tool result, ${COLD_RUNS} runs each (round-robin)`, "ms", msText,
    [...cold], cold.get(floor)!, 1, "max");
  const median = (c: Contender) => percentile(cold.get(c)!, 0.5);
  console.log(`zot WebSocket (connect to first result) / zot stdio (spawn to first result): median ${ratio(median(socket), median(zot)).trim()} (goal: at most 1x)`);
  console.log(`zot / MCP: median ${ratio(median(zot), median(mcp)).trim()}   ` +
    `zot / (MCP + tools/list): median ${ratio(median(zot), median(mcpListed)).trim()}` +
    (withBridge ? `   zot MCP bridge / (MCP + tools/list): median ${ratio(median(bridge), median(mcpListed)).trim()}` : ""));
} finally {
  socket.stop();
  rmSync(home, { recursive: true, force: true });
}
