// A url extension whose header HTTP cannot carry (a line break, a character outside Latin-1,
// written in the manifest or expanded from a variable) is that extension's diagnostic: zot starts,
// answers and exits 0 in print and json modes. And the $ZOT_HOME a run uses is its owner's only.
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { jsonLines, makeWorld, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function urlExtension(w: World, headers: Record<string, string>): void {
  const dir = join(w.home, "extensions", "remote");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "remote", url: "ws://127.0.0.1:9/", headers }));
}

describe("a url extension's header that HTTP cannot carry", () => {
  it.each([
    ["a line break in the manifest", { "X-Token": "a\r\nX-Injected: 1" }, {}, /header X-Token holds a line break/],
    ["a character outside Latin-1 from a variable", { "X-Token": "${ZOT_TEST_HEADER}" }, { ZOT_TEST_HEADER: "\u20ac" }, /outside Latin-1/],
  ])("%s: print mode answers and exits 0, naming the extension", async (_what, headers, env, message) => {
    world = await makeWorld([{ text: "still here" }]);
    urlExtension(world, headers);
    const r = await world.run(["-p", "--no-session", "hi"], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("still here");
    expect(r.stderr).toContain("remote");
    expect(r.stderr).toMatch(message);
  });

  it("json mode reports it as the extension's error and finishes the prompt", async () => {
    world = await makeWorld([{ text: "still here" }]);
    urlExtension(world, { "X-Token": "${ZOT_TEST_HEADER}" });
    const r = await world.run(["--mode", "json", "--no-session", "hi"], { env: { ZOT_TEST_HEADER: "ok\nX-Injected: 1" } });
    expect(r.code, r.stderr).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines.some((l) => l.type === "ext_error" && /header X-Token holds a line break/.test(String(l.message)))).toBe(true);
    expect(lines.at(-1)?.type).toBe("done");
  });
});

describe("$ZOT_HOME", () => {
  it("a run makes a home others can read (0755) its owner's only (0700)", async () => {
    world = await makeWorld([{ text: "ok" }]);
    expect(statSync(world.home).mode & 0o777).toBe(0o755);
    const r = await world.run(["-p", "hi"]);
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(world.home).mode & 0o777).toBe(0o700);
  });
});

describe("an .mcp.json http server's variables and headers", () => {
  it("a ${VAR} in its URL stays unexpanded in zot's output and the log; a header with a line break is its diagnostic", async () => {
    world = await makeWorld([{ text: "still here" }]);
    const secret = "mcp-path-secret-0123456789";
    writeFileSync(join(world.cwd, ".mcp.json"), JSON.stringify({ mcpServers: {
      docs: { type: "http", url: "http://127.0.0.1:9/${ZOT_TEST_MCP_PATH}/mcp" },
      notes: { type: "http", url: "http://127.0.0.1:9/mcp", headers: { "X-Token": "${ZOT_TEST_HEADER}" } },
    } }));
    const r = await world.run(["-p", "--no-session", "--trust-project", "hi"], { env: { ZOT_TEST_MCP_PATH: secret, ZOT_TEST_HEADER: "a\r\nX-Injected: 1" } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("still here");
    expect(r.stderr).toContain("docs");
    expect(r.stderr).toContain("notes");
    const logs = ["docs", "notes"].map((name) => { try { return readFileSync(join(world!.home, "logs", `ext-${name}.log`), "utf8"); } catch { return ""; } });
    expect([r.stderr, ...logs].join("\n")).not.toContain(secret);
    expect(r.stderr).not.toContain("X-Injected: 1\n");
  });
});
