// Headless Chromium driven over the DevTools protocol with the ws package: a test opens a page and
// evaluates expressions in it. Chromium forks helpers, so its whole process group is killed at the end.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WebSocket } from "ws";

export const CHROMIUM = "/usr/bin/chromium";

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ChromiumPage {
  evaluate(expression: string): Promise<unknown>;
  /** Polls `expression` until it returns something truthy, and returns that. */
  until(expression: string): Promise<unknown>;
  close(): Promise<void>;
}

/** Starts headless Chromium on `url` (extra flags, e.g. host resolver rules) and returns its page. */
export async function openChromium(url: string, flags: string[] = []): Promise<ChromiumPage> {
  const profile = mkdtempSync(join(tmpdir(), "zot-chromium-"));
  const child: ChildProcess = spawn(CHROMIUM, ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
    `--user-data-dir=${profile}`, "--remote-debugging-port=0", ...flags, url], { detached: true, stdio: "ignore" });
  const gone = new Promise((done) => child.on("close", done));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid!, "SIGKILL");
      await gone;
    }
    rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  };
  try {
    const portFile = join(profile, "DevToolsActivePort");
    while (!existsSync(portFile) || !readFileSync(portFile, "utf8").includes("\n")) {
      if (child.exitCode !== null) throw new Error(`chromium exited ${child.exitCode}`);
      await pause(50);
    }
    const port = readFileSync(portFile, "utf8").split("\n")[0];
    let target: { webSocketDebuggerUrl: string } | undefined;
    while (!target) {
      const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{ type: string; url: string; webSocketDebuggerUrl: string }>;
      target = list.find((t) => t.type === "page" && t.url !== "about:blank");
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
    return {
      evaluate,
      async until(expression) {
        for (;;) {
          const value = await evaluate(expression);
          if (value) return value;
          await pause(50);
        }
      },
      async close() {
        devtools.close();
        await close();
      },
    };
  } catch (e) {
    await close();
    throw e;
  }
}
