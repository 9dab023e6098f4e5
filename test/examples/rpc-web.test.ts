// examples/rpc-web/index.html in headless Chromium against a real `zot rpc --listen`: the page
// connects with the token zot printed, sends the prompt from its hash and shows the streamed answer.
import { afterEach, expect, it } from "vitest";
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { openChromium, type ChromiumPage } from "../support/chromium.ts";
import { waitForOutput } from "../support/wait-output.ts";
import { makeWorld, ROOT, type World } from "../e2e/support.ts";

const PAGE = join(ROOT, "examples", "rpc-web", "index.html");

let world: World | undefined;
let zot: ChildProcess | undefined;
let page: ChromiumPage | undefined;
afterEach(async () => {
  await page?.close();
  page = undefined;
  if (zot && zot.exitCode === null) {
    const gone = new Promise((done) => zot!.on("close", done));
    zot.kill("SIGTERM");
    await gone;
  }
  zot = undefined;
  await world?.close();
  world = undefined;
});

/** Starts `zot rpc --listen` and reads the URL and the token it made up from its stderr. */
async function zotListening(w: World): Promise<{ url: string; token: string }> {
  zot = w.start(["rpc", "--listen", "ws://127.0.0.1:0"]);
  const out = await waitForOutput(zot, "stderr", /rpc token: (\S+)/);
  return { url: /rpc listening on (ws:\/\/\S+)/.exec(out.stderr())![1]!, token: out.match };
}

it("the example page connects with the printed token, sends the prompt and shows the streamed answer as text, the tool call and done", async () => {
  world = await makeWorld([{ text: "Let me look.", tool_calls: [{ name: "read", args: { path: "notes.txt" } }] }, { text: "hello from zot <b>over</b> a socket" }]);
  const { url, token } = await zotListening(world);
  page = await openChromium(`${pathToFileURL(PAGE).href}#${url}&token=${token}&prompt=${encodeURIComponent("say hello")}&auto=1`);
  await page.until(`document.body.dataset.done === "1"`);
  const seen = (await page.evaluate(`({ answer: document.getElementById("answer").textContent,
    events: document.getElementById("events").textContent,
    markup: document.querySelector("#answer *, #events b") !== null })`)) as { answer: string; events: string; markup: boolean };
  // Text from the stream is shown as text: the model's "<b>" is no element.
  expect(seen.answer).toBe("Let me look.\n\nhello from zot <b>over</b> a socket");
  expect(seen.markup).toBe(false);
  expect(seen.events).toContain('tool read {"path":"notes.txt"}');
  expect(seen.events).toContain("done (end_turn)");
  expect(world.server.requests).toHaveLength(2);
});

it("without the token the same local page is refused and no prompt reaches the model", async () => {
  world = await makeWorld([{ text: "never" }]);
  const { url } = await zotListening(world);
  page = await openChromium(`${pathToFileURL(PAGE).href}#${url}&prompt=hi&auto=1`);
  const status = await page.until(`/closed/.test(document.getElementById("status").textContent) && document.getElementById("status").textContent`);
  expect(status).toMatch(/closed \(1006/);
  expect(world.server.requests).toHaveLength(0);
});
