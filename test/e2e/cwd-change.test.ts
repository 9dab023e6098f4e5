// Changing the working directory mid-run: rpc set_cwd over a real `zot --mode rpc` process and
// /cd in the real REPL (tmux). Real extension subprocesses, real HTTP to the scripted server.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cwdKey } from "../../lib/paths.ts";
import { readRecord, writeExtension } from "../extensions/helpers.ts";
import type { Turn } from "../support/model-server.ts";
import { killPanes, Pane } from "./pane.ts";
import { rpc } from "./rpc-client.ts";
import { makeWorld, requestText, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  killPanes();
  await world?.close();
  world = undefined;
});

interface Projects {
  world: World;
  /** The second project, a git repository beside the first (world.cwd). */
  other: string;
  /** What the global observer extension received, both of its processes in turn. */
  record: string;
}

/**
 * Two projects, each with its own AGENTS.md and project-local extension (`alpha` in the first,
 * `beta` in the other, each registering a command of its name); the other also has a project
 * skill. A global `observer` extension records the frames it receives.
 */
async function twoProjects(script: Turn[]): Promise<Projects> {
  world = await makeWorld(script);
  const other = join(world.cwd, "..", "other");
  mkdirSync(join(other, ".git"), { recursive: true });
  writeFileSync(join(world.cwd, "AGENTS.md"), "RULES-OF-THE-FIRST-PROJECT\n");
  writeFileSync(join(other, "AGENTS.md"), "RULES-OF-THE-OTHER-PROJECT\n");
  writeFileSync(join(other, "notes.txt"), "a file, not a directory\n");
  mkdirSync(join(other, ".zot", "skills", "ship-other"), { recursive: true });
  writeFileSync(join(other, ".zot", "skills", "ship-other", "SKILL.md"), "---\nname: ship-other\ndescription: ships the other project\n---\nShip it.\n");
  const local = (dir: string, name: string) =>
    writeExtension(join(dir, ".zot", "extensions"), name, { name, register: [{ type: "register_command", name, description: `${name} command` }] });
  local(world.cwd, "alpha");
  local(other, "beta");
  const record = join(world.cwd, "..", "observer.jsonl");
  writeExtension(join(world.home, "extensions"), "observer", {
    name: "observer", record, capabilities: ["events"],
    register: [{ type: "subscribe", events: ["session_start", "session_end", "tool_result"] }],
  });
  return { world, other, record };
}

const boundaries = (lines: Array<Record<string, any>>) => lines
  .filter((l) => l.type === "session_start" || l.type === "session_end")
  .map((l) => [l.type, l.session_id, l.cwd, ...(l.reason ? [l.reason] : [])]);

describe("rpc set_cwd", () => {
  it("ends the conversation with cwd_change before the new session_start, and tools, prompt, extensions and the session folder follow the new cwd", async () => {
    const { world, other, record } = await twoProjects([
      { tool_calls: [{ name: "bash", args: { command: "pwd" } }], stop: "tool_use" },
      { text: "you are in the other project" },
    ]);
    const c = rpc(world, ["--trust-project"]);
    const first = (await c.call({ type: "get_state" })).data.session_id as string;
    const names = async () => (await c.call({ type: "get_commands" })).data.commands.map((x: { name: string }) => x.name);
    expect(await names()).toContain("alpha");

    const moved = await c.call({ type: "set_cwd", path: "../other" });
    expect(moved).toMatchObject({ success: true, data: { cwd: other, session_id: expect.any(String) } });
    const second = moved.data.session_id as string;
    expect(second).not.toBe(first);
    expect(boundaries(c.lines)).toEqual([
      ["session_start", first, world.cwd],
      ["session_end", first, world.cwd, "cwd_change"],
      ["session_start", second, other],
    ]);
    expect((await c.call({ type: "get_state" })).data).toMatchObject({ cwd: other, session_id: second, message_count: 0 });
    expect((await c.call({ type: "hello" })).data).toMatchObject({ cwd: other, session_id: second });
    // The new project's local extension replaced the old one's.
    const now = await names();
    expect(now).toContain("beta");
    expect(now).not.toContain("alpha");

    await c.call({ type: "prompt", message: "where am I?" });
    await c.waitFor((l) => l.type === "done");
    const result = c.lines.find((l) => l.type === "tool_result");
    expect(result).toMatchObject({ tool_name: "bash", cwd: other, session_id: second });
    expect(JSON.stringify(result!.result)).toContain(other);
    const system = JSON.stringify(world.server.requests[0]!.body.system);
    expect(system).toContain("RULES-OF-THE-OTHER-PROJECT");
    expect(system).not.toContain("RULES-OF-THE-FIRST-PROJECT");
    expect(system).toContain(`Working directory: ${other}`);
    expect(system).toContain("ship-other");
    c.end();
    expect(await c.exited).toBe(0);

    // The conversation was saved in the other directory's session folder.
    const file = join(world.home, "sessions", cwdKey(other), `${second}.jsonl`);
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, "utf8")).toContain("where am I?");
    expect(existsSync(join(world.home, "sessions", cwdKey(other), `${first}.jsonl`))).toBe(false);

    // The global observer was restarted: its first process saw the old cwd end, the second
    // was told the new cwd in hello_ack and saw the new conversation's events stamped with it.
    const frames = readRecord(record);
    const acks = frames.flatMap((f, i) => (f.type === "hello_ack" ? [i] : []));
    expect(acks).toHaveLength(2);
    const seen = (from: number, to?: number) => frames.slice(from, to).filter((f) => f.type === "event")
      .map((f) => [f.event, f.session_id, f.cwd, ...(f.reason ? [f.reason] : [])]);
    expect(frames[acks[0]!]).toMatchObject({ cwd: world.cwd });
    expect(seen(acks[0]!, acks[1]!)).toEqual([
      ["session_start", first, world.cwd],
      ["session_end", first, world.cwd, "cwd_change"],
    ]);
    expect(frames[acks[1]!]).toMatchObject({ cwd: other });
    expect(seen(acks[1]!)).toEqual([
      ["session_start", second, other],
      ["tool_result", second, other],
      ["session_end", second, other, "shutdown"],
    ]);
  });

  it("expands ~, and refuses a missing path, a file and a busy agent with a clear error, changing nothing", async () => {
    const { world, other } = await twoProjects([{ text: "slow answer arrives slowly".split(" ").map((w) => `${w} `), chunk_delay_ms: 150 }]);
    const c = rpc(world, ["--trust-project"]);
    const first = (await c.call({ type: "get_state" })).data.session_id as string;

    const missing = await c.call({ type: "set_cwd", path: "no-such-dir" });
    expect(missing).toMatchObject({ success: false, error: `cd: no such directory: ${join(world.cwd, "no-such-dir")}` });
    const file = await c.call({ type: "set_cwd", path: "../other/notes.txt" });
    expect(file).toMatchObject({ success: false, error: `cd: ${join(other, "notes.txt")} is not a directory` });
    expect(await c.call({ type: "set_cwd" })).toMatchObject({ success: false, error: expect.stringContaining("path") });
    const shown = await c.call({ type: "command", name: "cd" });
    expect(shown).toMatchObject({ success: true, data: { action: "output", text: `Working directory ${world.cwd} (change it with /cd PATH).` } });
    const slash = await c.call({ type: "command", name: "cd", args: "no-such-dir" });
    expect(slash).toMatchObject({ success: false, error: expect.stringContaining("cd: no such directory") });

    await c.call({ type: "prompt", message: "take your time" });
    const busy = await c.call({ type: "set_cwd", path: "~/other" });
    expect(busy).toMatchObject({ success: false, error: expect.stringContaining("agent is busy") });
    // The failed command ended with a done of its own: wait for the one after the model's turn.
    await c.waitFor((l) => l.type === "done" && c.lines.slice(0, c.lines.indexOf(l)).some((x) => x.type === "turn_end"));
    expect((await c.call({ type: "get_state" })).data).toMatchObject({ cwd: world.cwd, session_id: first, message_count: 2 });
    expect(c.lines.filter((l) => l.type === "session_end")).toEqual([]);

    // HOME is the folder both projects are in.
    const home = await c.call({ type: "set_cwd", path: "~/other" });
    expect(home).toMatchObject({ success: true, data: { cwd: other } });
    expect(c.lines.filter((l) => l.type === "session_end").map((l) => l.reason)).toEqual(["cwd_change"]);
    c.end();
    expect(await c.exited).toBe(0);
  });
});

describe("/cd in the REPL", () => {
  it("/cd PATH moves to a fresh conversation in that directory: bash runs there, the old project's load errors go, and a refused path keeps them", async () => {
    const { world, other } = await twoProjects([
      { tool_calls: [{ name: "bash", args: { command: "pwd" } }], stop: "tool_use" },
      { text: "done looking" },
    ]);
    // The first project's broken extension: its load error stays until a cd actually happens.
    const broken = join(world.cwd, ".zot", "extensions", "broken");
    mkdirSync(broken, { recursive: true });
    writeFileSync(join(broken, "extension.json"), JSON.stringify({ name: "broken", exec: "sh -c 'exit 3'" }));
    const pane = await Pane.start(world, ["--trust-project"]);
    await pane.until("/help for commands");
    await pane.until('extension "broken" failed to start');
    await pane.submit("/help", /\/cd\s+change the working directory/);

    await pane.submit("/cd", `Working directory ${world.cwd} (change it with /cd PATH).`);
    await pane.submit("/cd nowhere", `zot: cd: no such directory: ${join(world.cwd, "nowhere")}`);
    expect(await pane.screen()).toContain('extension "broken" failed to start');

    await pane.submit("/cd ../other", new RegExp(`Working directory ${other.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: new conversation \\S+\\.`));
    expect(await pane.screen()).not.toContain('extension "broken" failed to start');
    await pane.submit("where am I?", "done looking");
    expect(requestText(world.server.requests[1]!.body)).toContain(other);
    expect(JSON.stringify(world.server.requests[0]!.body.system)).toContain("RULES-OF-THE-OTHER-PROJECT");
    // The new project's extension command is there, the old one's is gone.
    const help = await pane.submit("/help", /\/beta\s+beta command/);
    expect(help.slice(help.lastIndexOf("› /help"))).not.toMatch(/\/alpha\s/);
    await pane.keys("C-d");
    expect(await pane.exitCode()).toBe(0);
  });
});
