// The attacks on `zot rpc --listen` that a loopback listener invites, performed for real: a web
// page on another site (in headless Chromium, its own sandboxed iframe sending `Origin: null`) and
// another user of the machine. Each tries hello, get_state and a prompt whose bash call would run
// `id`; none may reach the model, and zot keeps serving its own client.
import { afterEach, describe, expect, it } from "vitest";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WebSocket } from "ws";
import { openChromium, type ChromiumPage } from "../support/chromium.ts";
import { waitForOutput } from "../support/wait-output.ts";
import { makeWorld, type World } from "./support.ts";

let world: World | undefined;
let zot: ChildProcess | undefined;
let page: ChromiumPage | undefined;
let site: Server | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await page?.close();
  page = undefined;
  if (site) await new Promise((done) => site!.close(done));
  site = undefined;
  if (zot && zot.exitCode === null) {
    const gone = new Promise((done) => zot!.on("close", done));
    zot.kill("SIGTERM");
    await gone;
  }
  zot = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  await world?.close();
  world = undefined;
});

const BASH_ID = [{ text: "running", tool_calls: [{ name: "bash", args: { command: "id > pwned.txt" } }] }, { text: "done" }];

async function zotListening(w: World) {
  zot = w.start(["rpc", "--listen", "ws://127.0.0.1:0"]);
  const out = await waitForOutput(zot, "stderr", /rpc token: (\S+)/);
  return { url: /rpc listening on (ws:\/\/\S+)/.exec(out.stderr())![1]!, token: out.match };
}

/** What the attacking script does once connected: the steps the red team took. */
const ATTACK = (url: string) => `
  const report = (r) => (window.parent !== window ? window.parent.postMessage(r, "*") : (document.body.dataset.result = JSON.stringify(r)));
  const seen = [];
  let ws;
  try { ws = new WebSocket(${JSON.stringify(url)}); } catch (e) { report({ opened: false, error: String(e), seen }); }
  ws.onopen = () => {
    ws.send(JSON.stringify({ id: 1, type: "hello" }));
    ws.send(JSON.stringify({ id: 2, type: "get_state" }));
    ws.send(JSON.stringify({ id: 3, type: "prompt", message: "run id" }));
  };
  ws.onmessage = (e) => seen.push(e.data);
  ws.onclose = (e) => report({ opened: seen.length > 0, code: e.code, seen });`;

/** Serves `html` at http://evil.test:PORT/ (Chromium resolves evil.test to this machine). */
async function attackerSite(html: string): Promise<string> {
  site = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(html);
  });
  await new Promise<void>((ready) => site!.listen(0, "127.0.0.1", ready));
  return `http://evil.test:${(site.address() as { port: number }).port}/`;
}

const RESOLVE_EVIL = ["--host-resolver-rules=MAP evil.test 127.0.0.1"];

describe("a web page on another site", () => {
  it("cannot drive rpc --listen from a sandboxed iframe (Origin null), nor from its own origin, nor by guessing a token", async () => {
    world = await makeWorld(BASH_ID);
    const { url } = await zotListening(world);
    const frame = (target: string) => `<iframe sandbox="allow-scripts" srcdoc="${`<script>${ATTACK(target)}</script>`.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"></iframe>`;
    const html = `<!doctype html><body><script>
      const results = [];
      window.addEventListener("message", (e) => { results.push(e.data); document.body.dataset.results = JSON.stringify(results); });
    </script>${frame(url)}${frame(`${url}?token=guess`)}<script>${ATTACK(url).replace("document.body.dataset.result", "document.body.dataset.direct")}</script></body>`;
    page = await openChromium(await attackerSite(html), RESOLVE_EVIL);
    const results = JSON.parse(String(await page.until(`(JSON.parse(document.body.dataset.results ?? "[]").length === 2 && document.body.dataset.direct) ? document.body.dataset.results : ""`)));
    const direct = JSON.parse(String(await page.evaluate("document.body.dataset.direct")));
    for (const attempt of [...results, direct]) {
      expect(attempt).toMatchObject({ opened: false, code: 1006, seen: [] });
    }
    expect(world.server.requests).toHaveLength(0);
  });
});

describe.runIf(process.getuid?.() === 0)("another user of the machine", () => {
  it("cannot drive root's loopback rpc --listen: without the token every command is refused", async () => {
    world = await makeWorld(BASH_ID);
    const { url, token } = await zotListening(world);
    const dir = mkdtempSync(join(tmpdir(), "zot-other-user-"));
    dirs.push(dir);
    chmodSync(dir, 0o755);
    const script = join(dir, "attack.cjs");
    // The ws package is not readable from the other user's side: Node 20's own http upgrade is.
    writeFileSync(script, `
      const http = require("node:http");
      const req = http.request(${JSON.stringify(url.replace("ws:", "http:"))}, { headers: { Connection: "Upgrade", Upgrade: "websocket",
        "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==" } });
      req.on("upgrade", (res, socket) => {
        const frame = (text) => { const b = Buffer.from(text); const mask = Buffer.alloc(4); const h = Buffer.from([0x81, 0x80 | b.length]);
          return Buffer.concat([h, mask, b]); };
        socket.write(frame(JSON.stringify({ id: 1, type: "hello" })));
        socket.write(frame(JSON.stringify({ id: 2, type: "prompt", message: "run id" })));
        let seen = Buffer.alloc(0);
        // zot answers, then closes: a close frame (opcode 0x88) ends what this client reads.
        socket.on("data", (d) => {
          seen = Buffer.concat([seen, d]);
          if (!seen.includes(0x88)) return;
          console.log(JSON.stringify({ upgraded: true, uid: process.getuid(), text: seen.toString("latin1") }));
          socket.destroy();
        });
      });
      req.on("response", (res) => console.log(JSON.stringify({ upgraded: false, status: res.statusCode })));
      req.end();`);
    chmodSync(script, 0o644);
    const out = JSON.parse(execFileSync("runuser", ["-u", "nobody", "--", process.execPath, script], { encoding: "utf8", timeout: 20_000 }));
    expect(out.uid).toBe(65534);
    expect(out.text).toContain("hello needs the token");
    expect(out.text).not.toContain('"started":true');
    expect(world.server.requests).toHaveLength(0);
    // zot still serves the user who has the token.
    const own = new WebSocket(`${url}?token=${token}`);
    const reply = await new Promise<Record<string, unknown>>((answer) => {
      own.once("open", () => own.send(JSON.stringify({ id: 1, type: "ping" })));
      own.on("message", (data) => {
        const line = JSON.parse(data.toString()) as Record<string, unknown>;
        if (line.type === "response") answer(line);
      });
    });
    expect(reply).toMatchObject({ id: 1, success: true });
    own.close();
  });
});
