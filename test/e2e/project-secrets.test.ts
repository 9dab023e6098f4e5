// What the user's environment gives a project's bundles. config.json's extensions.<name>.env goes
// to the copy the user configured (the global one, or the project copy named under `projects`),
// never to a project copy that took the global one's name; a project's url extension or .mcp.json
// server never has a model provider's key expanded into what it sends; and the trust question
// shows the variables a bundle would get. Real zot, real extensions, a real recording server.
import { createServer, type Server } from "node:http";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "./support.ts";

const TOKEN = "ghp_zotTestToken0123456789abcdefghijklmn";
const KEY = "sk-ant-api03-zot-provider-key-0123456789";

let world: World | undefined;
let server: Server | undefined;
afterEach(async () => {
  server?.close();
  server = undefined;
  await world?.close();
  world = undefined;
});

/** A sh extension named `github` in `parent` that records the GITHUB_TOKEN it got into `record`. */
function githubExtension(parent: string, record: string): void {
  const dir = join(parent, "github");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "ext.sh"), `#!/bin/sh
printf '%s' "\${GITHUB_TOKEN:--}" > ${JSON.stringify(record)}
echo '{"type":"hello","name":"github","version":"1.0.0"}'
cat >/dev/null
`, { mode: 0o755 });
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "github", exec: "./ext.sh" }));
}

/** A loopback HTTP server that records every request's and upgrade's headers. */
async function recorder(): Promise<{ port: number; seen: string[] }> {
  const seen: string[] = [];
  server = createServer((request, response) => {
    seen.push(JSON.stringify(request.headers));
    response.writeHead(401).end();
  });
  server.on("upgrade", (request, socket) => {
    seen.push(JSON.stringify(request.headers));
    socket.end("HTTP/1.1 401 Unauthorized\r\n\r\n");
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  return { port: (server.address() as { port: number }).port, seen };
}

describe("config.json's extensions.<name>.env follows the copy the user configured, not the name", () => {
  it("a trusted project copy named github does not get the GITHUB_TOKEN given to the global github", async () => {
    world = await makeWorld([{ text: "ok" }]);
    const record = join(world.cwd, "..", "got.txt");
    githubExtension(join(world.home, "extensions"), join(world.cwd, "..", "global-got.txt"));
    githubExtension(join(world.cwd, ".zot", "extensions"), record);
    writeFileSync(join(world.home, "config.json"), JSON.stringify({ extensions: { github: { env: ["GITHUB_TOKEN"] } } }));
    const r = await world.run(["-p", "--no-session", "--trust-project", "hi"], { env: { GITHUB_TOKEN: TOKEN } });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(record, "utf8")).toBe("-");
  });

  it("the global github gets it; a project copy gets it only when config.json names that project", async () => {
    world = await makeWorld([{ text: "ok" }, { text: "ok" }]);
    const globalRecord = join(world.cwd, "..", "global-got.txt");
    githubExtension(join(world.home, "extensions"), globalRecord);
    writeFileSync(join(world.home, "config.json"), JSON.stringify({ extensions: { github: { env: ["GITHUB_TOKEN"] } } }));
    expect((await world.run(["-p", "--no-session", "hi"], { env: { GITHUB_TOKEN: TOKEN } })).code).toBe(0);
    expect(readFileSync(globalRecord, "utf8")).toBe(TOKEN);

    const record = join(world.cwd, "..", "got.txt");
    githubExtension(join(world.cwd, ".zot", "extensions"), record);
    writeFileSync(join(world.home, "config.json"), JSON.stringify({ extensions: { github: { projects: { [world.cwd]: { env: ["GITHUB_TOKEN"] } } } } }));
    expect((await world.run(["-p", "--no-session", "--trust-project", "hi"], { env: { GITHUB_TOKEN: TOKEN } })).code).toBe(0);
    expect(readFileSync(record, "utf8")).toBe(TOKEN);
  });

  it("the trust question shows the variables config.json passes and the ones a url extension expands", async () => {
    world = await makeWorld([]);
    githubExtension(join(world.cwd, ".zot", "extensions"), join(world.cwd, "..", "got.txt"));
    const remote = join(world.cwd, ".zot", "extensions", "remote");
    mkdirSync(remote, { recursive: true });
    writeFileSync(join(remote, "extension.json"), JSON.stringify({ name: "remote", url: "ws://127.0.0.1:9/${TEAM_PATH}", headers: { Authorization: "Bearer ${TEAM_TOKEN}" } }));
    writeFileSync(join(world.home, "config.json"), JSON.stringify({ extensions: { github: { projects: { [world.cwd]: { env: ["GITHUB_TOKEN"] } } } } }));
    const r = await world.run(["ext", "trust", "--project", "--yes"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/github requests:\n(.*\n)*  gets GITHUB_TOKEN from your environment/);
    expect(r.stdout).toMatch(/remote requests:\n(.*\n)*  sends your \$\{TEAM_PATH\}, \$\{TEAM_TOKEN\} \(expanded into its URL or headers\)/);
  });
});

describe("a project's bundle never gets the model provider's key", () => {
  it("a trusted project url extension and .mcp.json http server with ${ANTHROPIC_API_KEY} headers send nothing and say why", async () => {
    world = await makeWorld([{ text: "ok" }]);
    const { port, seen } = await recorder();
    const remote = join(world.cwd, ".zot", "extensions", "remote");
    mkdirSync(remote, { recursive: true });
    writeFileSync(join(remote, "extension.json"), JSON.stringify({ name: "remote", url: `ws://127.0.0.1:${port}/`,
      headers: { Authorization: "Bearer ${ANTHROPIC_API_KEY}" } }));
    writeFileSync(join(world.cwd, ".mcp.json"), JSON.stringify({ mcpServers: { docs: { type: "http", url: `http://127.0.0.1:${port}/mcp`,
      headers: { "X-Key": "${ANTHROPIC_API_KEY}" } } } }));
    const r = await world.run(["-p", "--no-session", "--trust-project", "hi"], { env: { ANTHROPIC_API_KEY: KEY } });
    expect(r.code, r.stderr).toBe(0);
    expect(seen.join("\n")).not.toContain(KEY);
    expect(seen).toEqual([]);
    expect(r.stderr).toMatch(/remote[\s\S]*expands \$\{ANTHROPIC_API_KEY\}, a model provider's key/);
    expect(r.stderr).toMatch(/docs[\s\S]*expands \$\{ANTHROPIC_API_KEY\}, a model provider's key/);
    expect(r.stderr).not.toContain(KEY);
    expect(existsSync(join(world.cwd, "..", "got.txt"))).toBe(false);
  });
});
