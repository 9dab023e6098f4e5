// The WebSocket transport on Bun and Deno from source (the Node bundle has its own tests, the
// compiled binary its WebSocket extension test): `zot rpc --listen` serves a prompt and checks the
// token, and `zot ext serve` serves the kit to a zot on the same runtime through a url manifest.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { waitForOutput } from "../support/wait-output.ts";
import { connectWsClient } from "../support/ws-client.ts";
import { bunFromSource, denoFromSource, type SourceRuntime } from "./source-runtimes.ts";
import { jsonLines, KIT, makeWorld, type World } from "./support.ts";

const scratch = mkdtempSync(join(tmpdir(), "zot-ws-runtimes-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.each([bunFromSource, denoFromSource(join(scratch, "deno"))])("WebSocket on $name", (runtime: SourceRuntime) => {
  let world: World | undefined;
  const children = new Set<ChildProcess>();
  const sockets = new Set<WebSocket>();
  afterEach(async () => {
    for (const s of sockets) s.terminate();
    sockets.clear();
    await Promise.all([...children].map((c) => {
      if (c.exitCode !== null || c.signalCode !== null) return undefined;
      const gone = new Promise((r) => c.once("close", r));
      c.kill("SIGKILL");
      return gone;
    }));
    children.clear();
    await world?.close();
    world = undefined;
  });

  function spawnZot(args: string[], env: Record<string, string> = {}): ChildProcess {
    const [exe, ...pre] = runtime.argv;
    const child = spawn(exe!, [...pre, ...args], { cwd: world!.cwd, env: { ...world!.env, ...runtime.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    children.add(child);
    return child;
  }

  /** Starts zot on this runtime; resolves with what `ready` captured from its stderr. */
  const startZot = (args: string[], ready: RegExp, env: Record<string, string> = {}) => waitForOutput(spawnZot(args, env), "stderr", ready);

  function runZot(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawnZot(args);
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    return new Promise((done) => child.on("close", (code) => done({ code, stdout, stderr })));
  }

  it("rpc --listen: a wrong token is refused and the socket closed; with the right one a prompt streams to done", async () => {
    world = await makeWorld([{ text: "answer over the socket" }]);
    const { match: url } = await startZot(["rpc", "--listen", "ws://127.0.0.1:0"], /rpc listening on (ws:\/\/\S+)/, { ZOT_RPC_TOKEN: "s3cret" });

    const bad = await connectWsClient(url, sockets);
    bad.send({ id: "h1", type: "hello", token: "guess" });
    expect(await bad.next("response")).toMatchObject({ id: "h1", success: false, error: "wrong token" });
    expect(await bad.closed).toBe(1008); // policy violation

    const good = await connectWsClient(url, sockets);
    good.send({ id: "h1", type: "hello", token: "s3cret" });
    expect(await good.next("response")).toMatchObject({ id: "h1", success: true });
    good.send({ id: "p1", type: "prompt", message: "hi" });
    expect(await good.next("response")).toMatchObject({ id: "p1", success: true });
    await good.next("done");
    expect(good.frames.filter((f) => f.type === "text_delta").map((f) => f.delta).join("")).toBe("answer over the socket");
  });

  it("zot ext serve serves the kit; a zot on the same runtime calls its tool through a url manifest", async () => {
    world = await makeWorld([{ tool_calls: [{ id: "w1", name: "weather", args: { city: "Oslo" } }], stop: "tool_use" }, { text: "foggy" }]);
    const { match: url } = await startZot(["ext", "serve", KIT, "--port", "0"], /listening on (ws:\/\/\S+)/, { ZOT_SERVE_TOKEN: "s3rve" });
    const dir = join(world.home, "extensions", "remote-kit");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "kit", url, headers: { Authorization: "Bearer s3rve" } }));

    const r = await runZot(["--mode", "json", "--no-session", "weather in Oslo?"]);
    expect(r.code, r.stderr).toBe(0);
    const events = jsonLines(r.stdout);
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ tool_name: "weather", status: "completed" });
    expect(JSON.stringify(events.find((e) => e.type === "tool_result"))).toContain("Oslo: 16°C, fog");
    expect(events.at(-1)).toMatchObject({ type: "done" });
  });
});
