// The scripted model server itself: standalone mode (a real bun process) and request recording.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { startModelServer } from "../support/model-server.ts";

const root = join(import.meta.dirname, "..", "..");
const cleanups: (() => void)[] = [];
afterEach(() => { for (const cleanup of cleanups.splice(0)) cleanup(); });

test("standalone: bun runs a script file, prints its URL and serves the turns", async () => {
  const dir = mkdtempSync(join(tmpdir(), "zot-model-server-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const script = join(dir, "script.json");
  writeFileSync(script, JSON.stringify([{ text: "scripted hello" }]));
  const child = spawn(join(root, "node_modules", ".bin", "bun"), ["test/support/model-server.ts", script], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  cleanups.push(() => child.kill("SIGKILL"));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(out.trim());
    });
    child.on("exit", (code) => reject(new Error(`model server exited with ${code}`)));
  });
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

  const response = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "demo", stream: true, messages: [{ role: "user", content: "hi" }] }),
  });
  const body = await response.text();
  expect(response.headers.get("content-type")).toBe("text/event-stream");
  expect(body).toContain("\"content\":\"scripted\"");
  expect(body.trimEnd().endsWith("data: [DONE]")).toBe(true);

  const exhausted = await fetch(`${url}/v1/messages`, { method: "POST", body: "{}" });
  expect(exhausted.status).toBe(400);
  expect(await exhausted.text()).toContain("no turn left");

  const exited = new Promise((resolve) => child.on("exit", resolve));
  child.kill("SIGTERM");
  expect(await exited).toBe(0);
});

test("records method, path, headers and parsed body; unknown paths are 404 and consume no turn", async () => {
  const server = await startModelServer([{ text: "ok" }]);
  cleanups.push(() => void server.close());
  const missing = await fetch(`${server.url}/v1/embeddings`, { method: "POST", body: "{}" });
  expect(missing.status).toBe(404);
  expect(server.pending).toBe(1);
  await (await fetch(`${server.url}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-test": "yes" },
    body: JSON.stringify({ model: "m", stream: true, messages: [] }),
  })).text();
  expect(server.requests[1]).toMatchObject({ method: "POST", path: "/v1/messages", wire: "anthropic", body: { model: "m" }, headers: { "x-test": "yes" } });
  expect(await server.requests[1].outcome).toBe("completed");
  expect(server.pending).toBe(0);
});
