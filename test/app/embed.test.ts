// The embedding API from mod.ts: zot in-process against the scripted model server, with a real
// extension subprocess, driven the way another program would drive it.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createZot, type ZotEvent } from "../../mod.ts";
import { processAlive } from "../../lib/process/group.ts";
import { startModelServer, type ModelServer } from "../support/model-server.ts";
import { KIT } from "../e2e/support.ts";
import { hostPid } from "../support/host-pid.ts";

let server: ModelServer;
let root: string;
let cwd: string;
let home: string;
let pidDir: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "zot-embed-"));
  cwd = join(root, "project");
  home = join(root, "home");
  pidDir = join(root, "pids");
  for (const dir of [cwd, home, pidDir]) mkdirSync(dir, { recursive: true });
});

afterEach(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

const configFor = (extra: Record<string, unknown> = {}) => ({
  cwd,
  provider: "anthropic",
  model: "claude-sonnet-4-6",
  baseUrl: server.url,
  apiKey: "test-key",
  session: { kind: "none" as const },
  extensions: { paths: [KIT], discover: false },
  ...extra,
});

describe("Embedding zot in-process (mod.ts createZot)", () => {
  it("a prompt runs the model, an extension tool and returns the final text; close stops the extension", async () => {
    server = await startModelServer([
      { tool_calls: [{ id: "t1", name: "weather", args: { city: "Oslo" } }] },
      { text: "It is foggy in Oslo." },
    ]);
    const events: ZotEvent[] = [];
    // Extensions inherit the embedding process's environment.
    process.env.KIT_PID_DIR = pidDir;
    const zot = await createZot(configFor(), { env: { ZOT_HOME: home }, onEvent: (e) => events.push(e) });
    delete process.env.KIT_PID_DIR;
    const result = await zot.prompt("weather in Oslo?");
    expect(result).toEqual({ stop: "end_turn", text: "It is foggy in Oslo." });
    const toolResult = events.find((e) => e.type === "tool_result");
    expect(toolResult).toMatchObject({ tool_name: "weather", session_id: zot.sessionId });
    expect(JSON.stringify(server.requests[1]!.body)).toContain("Oslo: 16°C, fog");
    // The extension saw the system prompt through before_agent_start, as in the CLI.
    expect(JSON.stringify(server.requests[0]!.body)).toContain("[kit was here]");

    const pids = readdirSync(pidDir).map(hostPid);
    expect(pids.length).toBe(1);
    await zot.close();
    expect(events.at(-1)).toMatchObject({ type: "session_end", reason: "shutdown" });
    expect(pids.filter(processAlive)).toEqual([]);
  });

  it("abort ends the running prompt as aborted, and subscribe sees its done", async () => {
    server = await startModelServer([{ text: "a b c d e f g h", chunk_delay_ms: 200 }]);
    const zot = await createZot(configFor({ extensions: { paths: [], discover: false } }), { env: { ZOT_HOME: home } });
    const done: ZotEvent[] = [];
    const unsubscribe = zot.subscribe((e) => {
      if (e.type === "done") done.push(e);
      if (e.type === "text_delta") zot.abort();
    });
    const result = await zot.prompt("count");
    expect(result.stop).toBe("aborted");
    expect(done).toEqual([{ type: "done", stop: "aborted" }]);
    unsubscribe();
    await zot.close();
  });

  it("two runs in one process are independent sessions", async () => {
    server = await startModelServer([{ text: "one" }, { text: "two" }]);
    const noExt = configFor({ extensions: { paths: [], discover: false } });
    const a = await createZot(noExt, { env: { ZOT_HOME: home } });
    const b = await createZot(noExt, { env: { ZOT_HOME: home } });
    expect(a.sessionId).not.toBe(b.sessionId);
    expect((await a.prompt("first")).text).toBe("one");
    expect((await b.prompt("second")).text).toBe("two");
    expect(a.runtime.session.messages.length).toBe(2);
    expect(b.runtime.session.messages.length).toBe(2);
    await Promise.all([a.close(), b.close()]);
  });
});
