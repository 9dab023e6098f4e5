// rpc over WebSocket: real zot processes listening on 127.0.0.1 port 0, driven with the ws package.
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import type { ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { checkStreamLine } from "../support/stream-check.ts";
import { waitForOutput } from "../support/wait-output.ts";
import { makeWorld, type World } from "./support.ts";

let world: World | undefined;
let zot: ChildProcess | undefined;
afterEach(async () => {
  if (zot && zot.exitCode === null) {
    const gone = new Promise((done) => zot!.on("close", done));
    zot.kill("SIGTERM");
    await gone;
  }
  zot = undefined;
  await world?.close();
  world = undefined;
});

/**
 * Starts `zot rpc --listen ADDRESS` and resolves with the address it prints on stderr and the token
 * (ZOT_RPC_TOKEN, or the one zot made up and printed); `authed` is the address with the token in it.
 */
async function listen(w: World, args: string[] = [], env: Record<string, string> = {}, address = "ws://127.0.0.1:0") {
  const child = w.start(["rpc", "--listen", address, ...args], { env });
  zot = child;
  let stdout = "";
  child.stdout!.on("data", (d) => (stdout += d));
  const chosen = env.ZOT_RPC_TOKEN;
  const ready = await waitForOutput(child, "stderr", chosen ? /rpc listening on (ws:\/\/\S+)/ : /rpc token: (\S+)/);
  const url = /rpc listening on (ws:\/\/\S+)/.exec(ready.stderr())![1]!;
  const token = chosen ?? ready.match;
  return { url, token, authed: `${url}?token=${token}`, child, stdout: () => stdout, stderr: ready.stderr };
}

function client(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, { headers });
  const lines: Array<Record<string, any>> = [];
  const waiters: Array<() => void> = [];
  let closed: number | undefined;
  socket.on("message", (data) => {
    lines.push(checkStreamLine(data.toString()));
    for (const w of waiters.splice(0)) w();
  });
  const closedAt = new Promise<number>((done) => socket.on("close", (code) => {
    closed = code;
    for (const w of waiters.splice(0)) w();
    done(code);
  }));
  const opened = new Promise<void>((done, fail) => {
    socket.once("open", () => done());
    socket.once("error", fail);
  });
  const waitFor = async (pred: (l: Record<string, any>) => boolean) => {
    for (;;) {
      const found = lines.find(pred);
      if (found) return found;
      if (closed !== undefined) throw new Error(`closed ${closed}; got ${JSON.stringify(lines)}`);
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  let n = 0;
  return {
    socket, lines, opened, closedAt, waitFor,
    async call(cmd: Record<string, unknown>) {
      await opened;
      const id = `w${++n}`;
      socket.send(JSON.stringify({ id, ...cmd }));
      return waitFor((l) => l.type === "response" && l.id === id);
    },
  };
}

describe("rpc over WebSocket", () => {
  it("a prompt gets its response line, the streamed events and done, one message each; stdout stays empty", async () => {
    world = await makeWorld([{ text: "socket answer" }]);
    const z = await listen(world);
    const c = client(z.authed);
    expect((await c.call({ type: "prompt", message: "hi" })).data).toEqual({ started: true, queued: false });
    await c.waitFor((l) => l.type === "done");
    expect(c.lines.filter((l) => l.type === "text_delta").map((l) => l.delta).join("")).toBe("socket answer");
    c.socket.send(Buffer.from("{}"), { binary: true });
    expect(await c.waitFor((l) => l.type === "response" && l.success === false)).toMatchObject({ error: expect.stringContaining("binary") });
    c.socket.close();
    await c.closedAt;
    expect(z.stdout()).toBe("");
  });

  it("with ZOT_RPC_TOKEN a wrong token is refused and the socket closed; the right one works", async () => {
    world = await makeWorld();
    const z = await listen(world, [], { ZOT_RPC_TOKEN: "s3cret" });
    const bad = client(z.url);
    expect(await bad.call({ type: "hello", token: "guess" })).toMatchObject({ success: false, error: "wrong token" });
    await bad.closedAt;
    const good = client(z.url);
    expect(await good.call({ type: "hello", token: "s3cret" })).toMatchObject({ success: true });
    expect(await good.call({ type: "ping" })).toMatchObject({ data: { pong: true } });
    good.socket.close();
  });

  it("a non-loopback host needs --listen-any, and --listen-any needs a token", async () => {
    world = await makeWorld();
    const any = await world.run(["rpc", "--listen", "ws://0.0.0.0:0"]);
    expect(any.code).toBe(2);
    expect(any.stderr).toContain("only loopback");
    const noToken = await world.run(["rpc", "--listen", "ws://0.0.0.0:0", "--listen-any"]);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain("--listen-any needs ZOT_RPC_TOKEN");
    const notRpc = await world.run(["--listen", "ws://127.0.0.1:0", "hi"]);
    expect(notRpc.code).toBe(2);
    expect(notRpc.stderr).toContain("--listen is for rpc mode");
  });

  it("--listen-any with a token serves a client that connects from another address, after its hello", async () => {
    const external = Object.values(networkInterfaces()).flat().find((a) => a && a.family === "IPv4" && !a.internal);
    if (!external) throw new Error("this test needs a non-loopback IPv4 interface to connect from");
    world = await makeWorld([{ text: "served to the network" }]);
    const z = await listen(world, ["--listen-any"], { ZOT_RPC_TOKEN: "s3cret" }, "ws://0.0.0.0:0");
    expect(z.url).toMatch(/^ws:\/\/0\.0\.0\.0:\d+\/$/);
    const url = z.url.replace("0.0.0.0", external.address);
    const early = client(url);
    expect(await early.call({ type: "ping" })).toMatchObject({ success: false, error: expect.stringContaining("hello with the rpc token") });
    expect(await early.closedAt).toBe(1008);
    const c = client(url);
    expect(await c.call({ type: "hello", token: "s3cret" })).toMatchObject({ success: true });
    expect(await c.call({ type: "prompt", message: "hi" })).toMatchObject({ success: true });
    await c.waitFor((l) => l.type === "done");
    expect(c.lines.filter((l) => l.type === "text_delta").map((l) => l.delta).join("")).toBe("served to the network");
    c.socket.close();
  });

  it("a second client is refused while one is connected; after it leaves a new one continues the same session", async () => {
    world = await makeWorld([{ text: "first answer" }]);
    const z = await listen(world);
    const first = client(z.authed);
    await first.call({ type: "prompt", message: "hi" });
    await first.waitFor((l) => l.type === "done");
    const second = client(z.authed);
    expect(await second.waitFor((l) => l.type === "response")).toMatchObject({ success: false, error: expect.stringContaining("another client") });
    expect(await second.closedAt).toBe(1013);
    first.socket.close();
    await first.closedAt;
    const third = client(z.authed);
    expect((await third.call({ type: "get_state" })).data).toMatchObject({ message_count: 2 });
    third.socket.close();
  });

  it("without ZOT_RPC_TOKEN zot makes up a token and prints it once on stderr, never in its log; no command runs without it", async () => {
    world = await makeWorld([{ text: "never" }]);
    const z = await listen(world);
    expect(z.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const bare = client(z.url);
    expect(await bare.call({ type: "get_state" })).toMatchObject({ success: false, error: expect.stringContaining("hello with the rpc token") });
    expect(await bare.closedAt).toBe(1008);
    const noToken = client(z.url);
    expect(await noToken.call({ type: "hello" })).toMatchObject({ success: false, error: "hello needs the token" });
    await noToken.closedAt;
    const inHello = client(z.url);
    expect(await inHello.call({ type: "hello", token: z.token })).toMatchObject({ success: true });
    expect(await inHello.call({ type: "ping" })).toMatchObject({ data: { pong: true } });
    inHello.socket.close();
    await inHello.closedAt;
    expect(world.server.requests).toHaveLength(0);
    expect(z.stderr().split(z.token)).toHaveLength(2);
    const logs = join(world.home, "logs");
    for (const file of existsSync(logs) ? readdirSync(logs) : []) expect(readFileSync(join(logs, file), "utf8")).not.toContain(z.token);
  });

  it("a wrong token in the upgrade's URL or Authorization header is refused with HTTP 401", async () => {
    world = await makeWorld();
    const z = await listen(world);
    await expect(client(`${z.url}?token=guess`).opened).rejects.toThrow(/401/);
    await expect(client(z.url, { Authorization: "Bearer guess" }).opened).rejects.toThrow(/401/);
    const bearer = client(z.url, { Authorization: `Bearer ${z.token}` });
    expect(await bearer.call({ type: "get_state" })).toMatchObject({ success: true });
    bearer.socket.close();
  });

  it("a page from a foreign Origin is refused with 403, with or without the token; loopback pages are served after hello", async () => {
    world = await makeWorld();
    const z = await listen(world);
    for (const origin of ["http://evil.example", "http://127.0.0.1.evil.example", "https://localhost.evil.example:443", "chrome-extension://abc", "http://0.0.0.0:80"]) {
      await expect(client(z.url, { Origin: origin }).opened, origin).rejects.toThrow(/403/);
      await expect(client(z.authed, { Origin: origin }).opened, origin).rejects.toThrow(/403/);
    }
    for (const origin of ["http://127.0.0.1:8000", "http://localhost:3000", "http://[::1]", "https://LOCALHOST"]) {
      const ok = client(z.url, { Origin: origin });
      expect(await ok.call({ type: "hello", token: z.token }), origin).toMatchObject({ success: true });
      ok.socket.close();
      await ok.closedAt;
    }
  });

  it("an opaque Origin (null from a sandboxed iframe on any site, or file://) is refused with 403 unless the token is in the URL", async () => {
    world = await makeWorld([{ text: "never" }]);
    const z = await listen(world);
    for (const origin of ["null", "file://", "NULL"]) {
      await expect(client(z.url, { Origin: origin }).opened, origin).rejects.toThrow(/403/);
    }
    for (const origin of ["null", "file://"]) {
      const ok = client(z.authed, { Origin: origin });
      expect(await ok.call({ type: "get_state" }), origin).toMatchObject({ success: true });
      ok.socket.close();
      await ok.closedAt;
    }
    expect(world.server.requests).toHaveLength(0);
  });

  it("an upgrade whose Host is not a loopback name (DNS rebinding) is refused with 403, even with the token", async () => {
    world = await makeWorld();
    const z = await listen(world);
    for (const host of ["evil.example", `evil.example:${new URL(z.url).port}`, "127.0.0.1.nip.io", "0.0.0.0"]) {
      await expect(client(z.authed, { Host: host }).opened, host).rejects.toThrow(/403/);
    }
    const ok = client(z.authed, { Host: `localhost:${new URL(z.url).port}` });
    expect(await ok.call({ type: "ping" })).toMatchObject({ success: true });
    ok.socket.close();
  });

  it("work in flight when the client leaves is stopped; SIGTERM ends the server with 130", async () => {
    world = await makeWorld([{ text: "a long answer that streams slowly ".repeat(20), chunk_delay_ms: 50 }]);
    const z = await listen(world);
    const first = client(z.authed);
    await first.call({ type: "prompt", message: "hi" });
    await first.waitFor((l) => l.type === "text_delta");
    first.socket.close();
    await first.closedAt;
    const next = client(z.authed);
    for (;;) {
      const state = await next.call({ type: "get_state" });
      if (state.data.running === false) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const messages = (await next.call({ type: "get_messages" })).data.messages;
    expect(messages.at(-1)).toMatchObject({ role: "assistant", stop: "aborted" });
    const exited = new Promise<number | null>((done) => z.child.on("close", (code) => done(code)));
    z.child.kill("SIGTERM");
    expect(await exited).toBe(130);
    expect(await next.closedAt).toBeGreaterThan(0);
    expect(z.stdout()).toBe("");
  });
});
