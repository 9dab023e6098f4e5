// Three small clients written the way the Go zot's RPC document shows them (a POSIX-sh pipeline
// with node/python3 where it would use jq, a Python subprocess client, a Node readline client)
// drive the real zot, found on PATH, against the scripted model server. Every line zot printed
// to them is checked against the published stream schema.
import { execFile } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RecordedRequest, StaticTurn, Turn } from "../support/model-server.ts";
import { checkStreamLine } from "../support/stream-check.ts";
import { makeWorld, requestText, ROOT, ZOT, type World } from "./support.ts";

const CLIENTS = join(ROOT, "test", "fixtures", "clients");

interface Client {
  name: string;
  argv: (scenario: string, ...args: string[]) => string[];
  /** The scenario that answers a prompt over rpc (where hello and its token are used). */
  rpcAsk: string;
}

const clients: Client[] = [
  { name: "POSIX sh pipeline", argv: (s, ...a) => ["sh", join(CLIENTS, "zot-pipeline.sh"), s, ...a], rpcAsk: "rpc-ask" },
  { name: "Python client", argv: (s, ...a) => ["python3", join(CLIENTS, "zot_client.py"), s, ...a], rpcAsk: "ask" },
  { name: "Node client", argv: (s, ...a) => [process.execPath, join(CLIENTS, "zot-client.mjs"), s, ...a], rpcAsk: "ask" },
];

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

interface ClientRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Every line zot printed to the client, checked against the schema. */
  lines: Array<Record<string, any>>;
}

/** Runs a client with a `zot` on PATH that is this checkout's bundle. */
async function runClient(w: World, argv: string[], env: Record<string, string> = {}): Promise<ClientRun> {
  const bin = join(w.cwd, "..", "bin");
  if (!existsSync(bin)) {
    mkdirSync(bin);
    writeFileSync(join(bin, "zot"), `#!/bin/sh\nexec "${process.execPath}" "${ZOT}" "$@"\n`);
    chmodSync(join(bin, "zot"), 0o755);
  }
  const trace = join(w.cwd, "..", `trace-${Date.now()}-${Math.random().toString(16).slice(2)}.jsonl`);
  writeFileSync(trace, "");
  const [file, ...args] = argv;
  const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = execFile(file!, args, {
      cwd: w.cwd,
      env: { ...w.env, PATH: `${bin}:${w.env.PATH}`, ZOT_TRACE: trace, ...env },
      timeout: 60_000,
    }, (err, stdout, stderr) => done({ code: err ? (typeof err.code === "number" ? err.code : null) : 0, stdout, stderr }));
    child.stdin?.end();
  });
  const lines = readFileSync(trace, "utf8").split("\n").filter((l) => l !== "").map((l) => checkStreamLine(l));
  if (lines.length === 0) throw new Error(`the client saw no line from zot:\n${result.stdout}\n${result.stderr}`);
  return { ...result, lines };
}

/** The scripted turn for whichever prompt the request carries (queued prompts may race). */
function byPrompt(turns: Record<string, StaticTurn>): Turn {
  return (request: RecordedRequest) => {
    const sent = requestText(request.body);
    const prompt = Object.keys(turns).filter((p) => sent.includes(JSON.stringify(p))).at(-1);
    return prompt ? turns[prompt]! : { type: "error", status: 400, message: "unexpected prompt" };
  };
}

describe.each(clients)("$name", (client) => {
  it("a plain prompt prints the answer", async () => {
    world = await makeWorld([{ text: "Hello from zot." }]);
    const r = await runClient(world, client.argv("ask", "say hello"));
    expect(r.stdout).toBe("Hello from zot.\n");
    expect(r.code).toBe(0);
  });

  it("a bash tool prompt prints the tool's name and args", async () => {
    world = await makeWorld([
      { tool_calls: [{ name: "bash", args: { command: "echo hi" } }], stop: "tool_use" },
      { text: "It printed hi." },
    ]);
    const r = await runClient(world, client.argv("ask", "run echo"));
    expect(r.stdout).toBe('[tool] bash {"command":"echo hi"}\nIt printed hi.\n');
    expect(r.code).toBe(0);
    expect(r.lines.find((l) => l.type === "tool_result")).toMatchObject({ is_error: false, content: [{ type: "text", text: expect.stringContaining("hi") }] });
  });

  it("a provider error is printed and the client exits non-zero", async () => {
    world = await makeWorld([{ type: "error", status: 400, message: "prompt is too long" }]);
    const r = await runClient(world, client.argv("ask", "hi"));
    expect(r.stdout).toMatch(/^\[error\] .*prompt is too long/m);
    expect(r.code).toBe(1);
  });

  it("the rpc token works under both variable names", async () => {
    for (const name of ["ZOT_RPC_TOKEN", "ZOTCORE_RPC_TOKEN"]) {
      world = await makeWorld([{ text: `Authenticated via ${name}.` }]);
      const r = await runClient(world, client.argv(client.rpcAsk, "hi"), { [name]: "s3cret" });
      expect(r.stdout).toBe(`[hello] protocol 1 anthropic/claude-sonnet-4-6\nAuthenticated via ${name}.\n`);
      expect(r.code).toBe(0);
      await world.close();
      world = undefined;
    }
  });

  it("a /bin/sh prompt is answered by the model", async () => {
    world = await makeWorld([{ text: "The image has no shell." }]);
    const r = await runClient(world, client.argv(client.rpcAsk, "/bin/sh is missing, why?"));
    expect(r.stdout).toBe("The image has no shell.\n");
    expect(r.code).toBe(0);
    expect(requestText(world.server.requests[0]!.body)).toContain("/bin/sh is missing, why?");
  });

  it("compaction ends with compact_done and its summary", async () => {
    world = await makeWorld([{ text: "A long story. ".repeat(200) }, { text: "SUMMARY: the user asked for a story" }]);
    const r = await runClient(world, client.argv("compact", "tell me a story"));
    expect(r.stdout).toContain("[summary] SUMMARY: the user asked for a story\n");
    expect(r.code).toBe(0);
    const types = r.lines.map((l) => l.type);
    expect(types.indexOf("post_compact")).toBeLessThan(types.indexOf("compact_done"));
  });

  it("abort stops the running prompt; the queued one still runs", async () => {
    const turn = byPrompt({ first: { text: "never finished", hang_after: 1 }, second: { text: "Second answer." } });
    world = await makeWorld([turn, turn]);
    const r = await runClient(world, client.argv("abort"));
    expect(r.stdout).toBe("[queued] true\n[turn_end] aborted\n[done] first aborted\nSecond answer.\n[done] second end_turn\n");
    expect(r.code).toBe(0);
  });

  it("set_model, set_model, get_state sent back to back are answered in order", async () => {
    world = await makeWorld();
    const r = await runClient(world, client.argv("models", "claude-opus-4-7", "claude-haiku-4-5"));
    expect(r.stdout).toBe("set_model claude-opus-4-7\nset_model claude-haiku-4-5\nget_state claude-haiku-4-5\n");
    expect(r.code).toBe(0);
  });
});
