// examples/rpc-web/index.html in headless Chromium against a real `zot rpc --listen`: the page
// connects, sends the prompt from its hash and shows the streamed answer. Chromium is driven over
// the DevTools protocol with the ws package; its whole process group is killed at the end.
import { afterEach, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { WebSocket } from "ws";
import { makeWorld, ROOT, type World } from "../e2e/support.ts";

const PAGE = join(ROOT, "examples", "rpc-web", "index.html");
const CHROMIUM = "/usr/bin/chromium";

let world: World | undefined;
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const gone = new Promise((done) => child.on("close", done));
    // Chromium forks helpers: end the group it leads. zot is ended by its own pid.
    if (child.spawnargs[0] === CHROMIUM) process.kill(-child.pid!, "SIGKILL");
    else child.kill("SIGTERM");
    await gone;
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  await world?.close();
  world = undefined;
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function zotListening(w: World): Promise<string> {
  const child = w.start(["rpc", "--listen", "ws://127.0.0.1:0"]);
  children.push(child);
  let stderr = "";
  return new Promise((found, fail) => {
    child.stderr!.on("data", (d) => {
      stderr += d;
      const m = /rpc listening on (ws:\/\/\S+)/.exec(stderr);
      if (m) found(m[1]!);
    });
    child.on("close", () => fail(new Error(`zot ended: ${stderr}`)));
  });
}

/** Starts headless Chromium on `url` and returns a DevTools session on its page. */
async function chromium(url: string) {
  const profile = mkdtempSync(join(tmpdir(), "zot-chromium-"));
  dirs.push(profile);
  const child = spawn(CHROMIUM, ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
    `--user-data-dir=${profile}`, "--remote-debugging-port=0", url], { detached: true, stdio: "ignore" });
  children.push(child);
  const portFile = join(profile, "DevToolsActivePort");
  while (!existsSync(portFile) || !readFileSync(portFile, "utf8").includes("\n")) {
    if (child.exitCode !== null) throw new Error(`chromium exited ${child.exitCode}`);
    await pause(50);
  }
  const port = readFileSync(portFile, "utf8").split("\n")[0];
  let target: { type: string; webSocketDebuggerUrl: string } | undefined;
  while (!target) {
    const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{ type: string; url: string; webSocketDebuggerUrl: string }>;
    target = list.find((t) => t.type === "page" && t.url.startsWith("file:"));
    if (!target) await pause(50);
  }
  const devtools = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((open, fail) => {
    devtools.once("open", open);
    devtools.once("error", fail);
  });
  let n = 0;
  const evaluate = (expression: string) => new Promise<unknown>((done) => {
    const id = ++n;
    const onMessage = (data: Buffer) => {
      const reply = JSON.parse(data.toString()) as { id?: number; result?: { result?: { value?: unknown } } };
      if (reply.id !== id) return;
      devtools.off("message", onMessage);
      done(reply.result?.result?.value);
    };
    devtools.on("message", onMessage);
    devtools.send(JSON.stringify({ id, method: "Runtime.evaluate", params: { expression, returnByValue: true } }));
  });
  return { evaluate, close: () => devtools.close() };
}

it("the example page connects, sends the prompt and shows the streamed answer as text, the tool call and done", async () => {
  world = await makeWorld([{ text: "Let me look.", tool_calls: [{ name: "read", args: { path: "notes.txt" } }] }, { text: "hello from zot <b>over</b> a socket" }]);
  const ws = await zotListening(world);
  const page = await chromium(`${pathToFileURL(PAGE).href}#${ws}&prompt=${encodeURIComponent("say hello")}&auto=1`);
  let seen: { answer: string; done: string; events: string; markup: boolean } | undefined;
  while (seen?.done !== "1") {
    seen = (await page.evaluate(`({ answer: document.getElementById("answer").textContent,
      done: document.body.dataset.done ?? "", events: document.getElementById("events").textContent,
      markup: document.querySelector("#answer *, #events b") !== null })`)) as typeof seen;
    if (seen?.done !== "1") await pause(50);
  }
  // Text from the stream is shown as text: the model's "<b>" is no element.
  expect(seen.answer).toBe("Let me look.\n\nhello from zot <b>over</b> a socket");
  expect(seen.markup).toBe(false);
  expect(seen.events).toContain('tool read {"path":"notes.txt"}');
  expect(seen.events).toContain("done (end_turn)");
  expect(world.server.requests).toHaveLength(2);
  page.close();
});
