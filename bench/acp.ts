// What an editor pays to drive zot over ACP, against `zot --mode json` doing the same prompt, in
// the same run with the cases interleaved, all on the Node bundle (dist/zot.mjs) against the
// scripted model server. Cold: spawn to the first streamed text (ACP's first agent_message_chunk
// after initialize and session/new; json's first text_delta line). Warm: one more prompt on a
// running ACP session, prompt to end_turn, against a whole json run (what a script pays per
// prompt). A benchmark, not a test: it prints numbers and asserts no speed.
//   node_modules/.bin/bun build.ts --node-only && node_modules/.bin/bun bench/acp.ts [runs=15]
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { startModelServer } from "../test/support/model-server.ts";
import { percentile } from "./timing.ts";

const text = process.argv[2];
const RUNS = Number(text ?? 15);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`runs must be a positive integer, got ${JSON.stringify(text)}`);
const ZOT = join(import.meta.dirname, "..", "dist", "zot.mjs");
if (!existsSync(ZOT)) throw new Error("no dist/zot.mjs: run `node_modules/.bin/bun build.ts --node-only` first");
/** Node by its absolute path: a version manager's shim costs up to a second per start. */
const NODE = process.env.NODE ?? (process.versions.bun ? spawnSync("node", ["-p", "process.execPath"], { encoding: "utf8" }).stdout.trim() : process.execPath);

const work = mkdtempSync(join(tmpdir(), "zot-bench-acp-"));
const home = join(work, "home");
mkdirSync(home);
const server = await startModelServer();
const env = { PATH: process.env.PATH ?? "", HOME: work, ZOT_HOME: home, ZOT_PROVIDER: "anthropic", ZOT_MODEL: "claude-sonnet-4-6",
  ZOT_BASE_URL: server.url, ANTHROPIC_API_KEY: "bench" };
const REPLY = { text: "all good" };

/** One json run: spawn to the first text_delta line, and spawn to exit. */
async function jsonRun(): Promise<{ first: number; whole: number }> {
  server.push(REPLY);
  const begin = performance.now();
  const child = spawn(NODE, [ZOT, "--mode", "json", "--no-session", "hi"], { cwd: work, env, stdio: ["ignore", "pipe", "ignore"] });
  let first = 0;
  child.stdout.on("data", (d: Buffer) => {
    if (!first && d.includes('"text_delta"')) first = performance.now() - begin;
  });
  const code = await new Promise((done) => child.on("close", done));
  if (code !== 0 || !first) throw new Error(`json run failed (${String(code)})`);
  return { first, whole: performance.now() - begin };
}

/** One ACP session: spawn to the first agent_message_chunk, then a warm prompt to end_turn. */
async function acpRun(): Promise<{ first: number; warm: number }> {
  server.push(REPLY);
  server.push(REPLY);
  const begin = performance.now();
  const child = spawn(NODE, [ZOT, "acp"], { cwd: work, env, stdio: ["pipe", "pipe", "ignore"] });
  let first = 0;
  const app = acp.client({ name: "bench" }).onNotification("session/update", ({ params }) => {
    if (!first && params.update.sessionUpdate === "agent_message_chunk") first = performance.now() - begin;
  });
  const connection = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
  const agent = connection.agent;
  await agent.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  const { sessionId } = await agent.request("session/new", { cwd: work, mcpServers: [] });
  await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
  const warmBegin = performance.now();
  await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "again" }] });
  const warm = performance.now() - warmBegin;
  child.stdin.end();
  await new Promise((done) => child.on("close", done));
  if (!first) throw new Error("no agent_message_chunk arrived");
  return { first, warm };
}

const rows = { acpFirst: [] as number[], jsonFirst: [] as number[], acpWarm: [] as number[], jsonWhole: [] as number[] };
await jsonRun();
await acpRun();
for (let i = 0; i < RUNS; i++) {
  // Interleaved, alternating which goes first, so load hits both alike.
  const order = i % 2 === 0 ? [jsonRun, acpRun] : [acpRun, jsonRun];
  for (const run of order) {
    const r = await run();
    if ("warm" in r) {
      rows.acpFirst.push(r.first);
      rows.acpWarm.push(r.warm);
    } else {
      rows.jsonFirst.push(r.first);
      rows.jsonWhole.push(r.whole);
    }
  }
}
await server.close();
rmSync(work, { recursive: true, force: true });

const p50 = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 0.5);
const line = (label: string, xs: number[], base: number[]) =>
  `${label.padEnd(46)} ${p50(xs).toFixed(1).padStart(8)} ms   ${(p50(xs) / p50(base)).toFixed(2)}×`;
process.stdout.write(`ACP against json mode, ${RUNS} interleaved runs each (p50; ratio to the json row below it)\n`);
process.stdout.write(`${line("cold: spawn → first text, zot acp", rows.acpFirst, rows.jsonFirst)}\n`);
process.stdout.write(`${line("cold: spawn → first text, zot --mode json", rows.jsonFirst, rows.jsonFirst)}\n`);
process.stdout.write(`${line("per prompt: warm ACP turn (prompt → end_turn)", rows.acpWarm, rows.jsonWhole)}\n`);
process.stdout.write(`${line("per prompt: whole json run (spawn → exit)", rows.jsonWhole, rows.jsonWhole)}\n`);
