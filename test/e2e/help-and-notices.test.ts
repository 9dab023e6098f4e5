// Help output and provider notices through the real zot process: colour only on a terminal,
// one table for `zot ext --help`, deprecated models marked, and an SDK's deprecation warning
// once per run on stderr, never on stdout.
import { afterEach, describe, expect, it } from "vitest";
import { killPanes, Pane } from "./pane.ts";
import { jsonLines, makeWorld, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  killPanes();
  await world?.close();
  world = undefined;
});

const ESC = "\x1b";

describe("help output", () => {
  it("zot --help piped has no escape codes; zot ext --help is one table of every command, ending with a newline", async () => {
    world = await makeWorld();
    const root = await world.run(["--help"]);
    expect(root.code).toBe(0);
    expect(root.stdout).toContain("USAGE");
    expect(root.stdout).not.toContain(ESC);
    const ext = await world.run(["ext", "--help"]);
    expect(ext.stdout).not.toContain(ESC);
    expect(ext.stdout.endsWith("\n")).toBe(true);
    const table = ext.stdout.slice(ext.stdout.indexOf("COMMANDS\n") + "COMMANDS\n".length).split("\n\n")[0]!.split("\n");
    // A row names its command; a description too long for the screen goes on under itself.
    const named = table.filter((row) => /^ {2}\S/.test(row));
    expect(named.map((row) => row.trim().split(/\s+/)[0])).toEqual(["list", "doctor", "install", "marketplace", "add-url", "update", "remove", "enable", "disable", "trust", "logs", "new", "test", "serve"]);
    for (const row of named) expect(row).toMatch(/^ {2}\S+ +\S/);
    const column = named[0]!.search(/(?<= {2}\S+ +)\S/);
    for (const row of table.filter((r) => !named.includes(r))) expect(row.search(/\S/)).toBe(column);
    const sub = await world.run(["ext", "list", "--help"]);
    expect(sub.stdout).not.toContain(ESC);
    expect(sub.stdout.endsWith("\n")).toBe(true);
  });

  it("zot acp --help and zot rpc --help describe their mode (on stderr: stdout belongs to the protocol), not the root's options", async () => {
    world = await makeWorld();
    const acp = await world.run(["acp", "--help"]);
    expect(acp.code).toBe(0);
    expect(acp.stdout).toBe("");
    expect(acp.stderr).toMatch(/USAGE zot acp \[OPTIONS\]/);
    expect(acp.stderr).toMatch(/Agent Client Protocol \(version \d+\)/);
    expect(acp.stderr).toContain(`"agent_servers": {"zot"`);
    expect(acp.stderr).not.toContain("--list-models");
    const rpc = await world.run(["rpc", "--help"]);
    expect(rpc.stderr).toContain("zot rpc --listen ws://127.0.0.1:PORT");
    expect(rpc.stderr).toContain("ZOT_RPC_TOKEN");
    const viaMode = await world.run(["--mode", "acp", "--help"]);
    expect(viaMode.stderr).toMatch(/USAGE zot acp/);
  });

  it("on a terminal help is coloured, unless NO_COLOR is set", async () => {
    world = await makeWorld();
    // TEST and CI (which the tmux server inherits from vitest) do not change it.
    const coloured = await Pane.start(world, ["--help"], { NO_COLOR: "", TEST: "", CI: "" });
    await coloured.until("[zot exited 0]");
    expect(await coloured.text(true)).toMatch(/\x1b\[[0-9;]*m/);
    const plain = await Pane.start(world, ["--help"], { NO_COLOR: "1", TEST: "", CI: "" });
    await plain.until("[zot exited 0]");
    expect((await plain.text(true)).split("\n").filter((l) => l.includes("USAGE"))[0]).not.toContain(ESC);
  });
});

describe("deprecated models", () => {
  it("--list-models marks them", async () => {
    world = await makeWorld();
    const r = await world.run(["--list-models", "--provider", "anthropic"]);
    const rows = r.stdout.split("\n");
    expect(rows.find((l) => l.startsWith("anthropic/claude-sonnet-4-5\t"))).toMatch(/deprecated \(end of life November 30th, 2026\)$/);
    expect(rows.find((l) => l.startsWith("anthropic/claude-sonnet-4-6\t"))).not.toContain("deprecated");
  });

  it("the SDK's deprecation warning is one stderr line per run in print and json mode, never on stdout", async () => {
    world = await makeWorld([
      { tool_calls: [{ name: "bash", args: { command: "echo hi" } }], stop: "tool_use" },
      { text: "printed." },
      { tool_calls: [{ name: "bash", args: { command: "echo hi" } }], stop: "tool_use" },
      { text: "json." },
    ]);
    const print = await world.run(["-p", "--no-session", "--model", "claude-sonnet-4-5", "go"]);
    expect(print.stdout).toBe("printed.\n");
    const warned = print.stderr.split("\n").filter((l) => l.includes("deprecated"));
    expect(warned).toEqual([expect.stringMatching(/^zot: warning: The model 'claude-sonnet-4-5' is deprecated .* Please migrate/)]);

    const json = await world.run(["--mode", "json", "--no-session", "--model", "claude-sonnet-4-5", "go"]);
    expect(() => jsonLines(json.stdout)).not.toThrow();
    expect(json.stdout).not.toContain("is deprecated");
    expect(json.stderr.split("\n").filter((l) => l.includes("deprecated"))).toHaveLength(1);
    expect(world.server.requests).toHaveLength(4);
  });
});
