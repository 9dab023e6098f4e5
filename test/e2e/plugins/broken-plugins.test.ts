// A broken plugin (hooks.json that is not JSON, a hook whose script is missing, a hook that
// hangs, an MCP server that cannot start) gives a diagnostic naming the plugin and the file, and
// everything else keeps working.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "../support.ts";
import { bashTurn, sentToModel } from "../hooks/support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A plugin folder with `files` (relative path → content) under the world's extensions. */
function plugin(w: World, name: string, files: Record<string, string>): string {
  const dir = join(w.home, "extensions", name);
  for (const [rel, text] of Object.entries({ ".claude-plugin/plugin.json": JSON.stringify({ name, version: "1.0.0" }), ...files })) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text, { mode: 0o755 });
  }
  return dir;
}

const hooks = (event: string, command: string, timeout?: number) =>
  JSON.stringify({ hooks: { [event]: [{ hooks: [{ type: "command", command, ...(timeout ? { timeout } : {}) }] }] } });

describe("broken plugins", () => {
  it("hooks.json that is not JSON is named in doctor; the plugin's commands and the other plugins still work", async () => {
    world = await makeWorld([bashTurn("touch ran.txt"), { text: "ok" }]);
    const broken = plugin(world, "broken-json", { "hooks/hooks.json": "{ not json", "commands/hello.md": "---\ndescription: hi\n---\nSay hello\n" });
    plugin(world, "fine", { "hooks/hooks.json": hooks("PreToolUse", "echo fine says no >&2; exit 2") });
    const doctor = await world.run(["ext", "doctor"]);
    expect(doctor.stdout).toContain(`${join(broken, "hooks", "hooks.json")}: invalid JSON`);
    expect(doctor.stdout).toContain("/broken-json:hello");
    await world.run(["-p", "go"]);
    expect(sentToModel(world, 1)).toContain("fine says no");
  });

  it("a hook whose script is missing and one that hangs are errors naming the plugin's hook; the call still runs", async () => {
    world = await makeWorld([bashTurn("touch ran.txt"), { text: "ok" }]);
    plugin(world, "missing-script", { "hooks/hooks.json": hooks("PreToolUse", "bash \"${CLAUDE_PLUGIN_ROOT}/hooks/nope.sh\"") });
    plugin(world, "hangs", { "hooks/hooks.json": hooks("PreToolUse", "sleep 30", 1) });
    const r = await world.run(["-p", "go"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/missing-script.*PreToolUse hook `bash "\$\{CLAUDE_PLUGIN_ROOT\}\/hooks\/nope\.sh"` failed: exited with status 127/s);
    expect(r.stderr).toMatch(/hangs.*PreToolUse hook `sleep 30` failed: timed out after 1 s/s);
    expect(sentToModel(world, 1)).not.toContain("was not run");
  });

  it("an MCP server that cannot start is an error naming the plugin's server; the rest runs", async () => {
    world = await makeWorld([{ text: "ok" }]);
    plugin(world, "bad-mcp", { ".mcp.json": JSON.stringify({ mcpServers: { db: { command: "${CLAUDE_PLUGIN_ROOT}/no-such-server" } } }),
      "commands/ping.md": "Say pong\n" });
    const doctor = await world.run(["ext", "doctor"]);
    expect(doctor.stdout).toMatch(/bad-mcp-db[\s\S]*no-such-server/);
    expect(doctor.stdout).toContain("/bad-mcp:ping");
    expect((await world.run(["-p", "/bad-mcp:ping"])).code).toBe(0);
    expect(sentToModel(world, 0)).toContain("Say pong");
  });
});
