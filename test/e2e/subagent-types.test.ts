// Subagents to the level of a serious agent CLI: the child knows it is a subagent, its tools may be
// extension tools, named agent types (user and trusted project files), the parent's cost includes
// the children's, records belong to a project, and the fan-out queue starts agents when they run.
// The real zot bundle, real subagent child processes (`--swarm-child`), a real extension and one
// scripted model server.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SUBAGENT_PROMPT } from "../../lib/app/subagents/child-config.ts";
import { FILESYSTEM } from "../extensions/mcp/support.ts";
import { rpc } from "./rpc-client.ts";
import { jsonLines, KIT, makeWorld, type World } from "./support.ts";
import {
  agentCall, closeSubagentWorld, eventually, firstUserText, processesIn, resultOf, routedTurns, textOf, worldRoot,
} from "./subagent-support.ts";

let world: World | undefined;
afterEach(async () => {
  await closeSubagentWorld(world);
  world = undefined;
});

const systemText = (body: any) => (typeof body.system === "string" ? body.system : (body.system ?? []).map((b: any) => b.text).join("\n"));
const toolNames = (body: any): string[] => body.tools.map((t: any) => t.name);
const agentToolDescription = (body: any): string => body.tools.find((t: any) => t.name === "agent").description;
/** The requests of the conversation that began with `marker`. */
const requestsOf = (w: World, marker: string) => w.server.requests.filter((r) => firstUserText(r.body).includes(marker));

function writeType(dir: string, file: string, text: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), text);
}

describe("subagent children", () => {
  it("the child's system prompt says it is a subagent and that its final message goes to the parent", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [agentCall("toolu_a", { prompt: "CHILD-P: look" }), { text: "ok" }],
      "CHILD-P": [{ text: "looked" }],
    }));
    const run = await world.run(["--mode", "json", "--no-ext", "PARENT: go"]);
    expect(run.code).toBe(0);
    expect(systemText(requestsOf(world, "CHILD-P")[0]!.body)).toContain(SUBAGENT_PROMPT);
    expect(systemText(requestsOf(world, "PARENT")[0]!.body)).not.toContain(SUBAGENT_PROMPT);
  });

  it("the parent's usage.cumulative and cost include the children's tokens, with a children part", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [agentCall("toolu_a", { prompt: "CHILD-U: count" }), { text: "ok", usage: { input: 100, output: 10 } }],
      "CHILD-U": [{ text: "counted", usage: { input: 1000, output: 500 } }],
    }));
    const lines = jsonLines((await world.run(["--mode", "json", "--no-ext", "PARENT: go"])).stdout);
    const usages = lines.filter((l) => l.type === "usage");
    const last = usages.at(-1)!;
    expect(last.cumulative.children).toMatchObject({ input: 1000, output: 500 });
    expect(last.cumulative.children.cost_usd).toBeGreaterThan(0);
    // The totals are the parent's own steps plus the child's.
    const own = usages.reduce((sum, u) => sum + u.input, 0);
    expect(last.cumulative.input).toBe(own + 1000);
    expect(last.cumulative.cost_usd).toBeCloseTo(usages.reduce((sum, u) => sum + u.cost_usd, 0) + last.cumulative.children.cost_usd, 10);
    // Before the child ran, nothing was counted for children.
    expect(usages[0]!.cumulative.children).toBeUndefined();
  });

  it("tools may name an extension tool: the child is offered it (and only what was named); an unknown name is refused", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [
        agentCall("toolu_unknown", { prompt: "CHILD-X: never runs", tools: ["read", "no_such_tool"] }),
        agentCall("toolu_ext", { prompt: "CHILD-T: weather", tools: ["weather", "read"] }),
        { text: "ok" },
      ],
      "CHILD-T": [{ tool_calls: [{ name: "weather", args: { city: "Oslo" } }] }, { text: "Oslo is foggy" }],
    }));
    const lines = jsonLines((await world.run(["--mode", "json", "-e", KIT, "PARENT: go"])).stdout);
    const refused = resultOf(lines, "toolu_unknown");
    expect(refused.status).toBe("failed");
    expect(textOf(refused)).toMatch(/^agent: unknown tool no_such_tool in tools \(this agent has .*\bweather\b.*\)$/);
    expect(requestsOf(world, "CHILD-X")).toHaveLength(0);

    const child = requestsOf(world, "CHILD-T");
    expect(toolNames(child[0]!.body).sort()).toEqual(["read", "weather"]);
    expect(JSON.stringify(child[1]!.body.messages)).toContain("Oslo: 16°C, fog");
    expect(textOf(resultOf(lines, "toolu_ext"))).toMatch(/^Oslo is foggy\n/);
  });

  it("tools may name an MCP server's bridged tool: the child calls the real server through it", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [agentCall("toolu_mcp", { prompt: "CHILD-M: read notes", tools: ["files_read_text_file"] }), { text: "ok" }],
      "CHILD-M": [{ tool_calls: [{ name: "files_read_text_file", args: { path: "notes.txt" } }] }, { text: "read them" }],
    }));
    writeFileSync(join(world.cwd, "notes.txt"), "the code is 0451\n");
    const dir = join(world.home, "extensions", "files");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "files", mcp: { command: FILESYSTEM, args: [world.cwd] } }));
    const lines = jsonLines((await world.run(["--mode", "json", "PARENT: go"])).stdout);
    expect(resultOf(lines, "toolu_mcp").status).toBe("completed");
    const child = requestsOf(world, "CHILD-M");
    expect(toolNames(child[0]!.body)).toEqual(["files_read_text_file"]);
    expect(JSON.stringify(child[1]!.body.messages)).toContain("the code is 0451");
  });
});

describe("agent types", () => {
  const reviewer = "---\nname: reviewer\ndescription: Reviews a change and lists its risks.\ntools: read, bash\nmodel: claude-haiku-4-5\n---\n"
    + "Review like a careful senior engineer. REVIEWER-MARK\n";

  it("a type in $ZOT_HOME/agents is offered in the agent tool's description, and `type` gives the child its instructions, tools and model", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [
        agentCall("toolu_none", { prompt: "CHILD-N: never runs", type: "nobody" }),
        agentCall("toolu_beyond", { prompt: "CHILD-B: never runs", type: "reviewer", tools: ["write"] }),
        agentCall("toolu_r", { prompt: "CHILD-R: review", type: "reviewer" }),
        { text: "ok" },
      ],
      "CHILD-R": [{ text: "no risks" }],
    }));
    writeType(join(world.home, "agents"), "reviewer.md", reviewer);
    writeType(join(world.home, "agents"), "broken.md", "---\nname: Bad Name\n---\nbody\n");
    const run = await world.run(["--mode", "json", "--no-ext", "PARENT: go"]);
    const lines = jsonLines(run.stdout);
    expect(agentToolDescription(requestsOf(world, "PARENT")[0]!.body)).toContain("\n- reviewer: Reviews a change and lists its risks.");
    expect(run.stderr + JSON.stringify(lines.filter((l) => l.type === "ext_notify" || l.type === "ext_error")))
      .toMatch(/broken\.md is skipped: its name "Bad Name" must be lowercase/);

    expect(textOf(resultOf(lines, "toolu_none"))).toBe('agent: no agent type "nobody" (types: reviewer)');
    expect(textOf(resultOf(lines, "toolu_beyond"))).toBe("agent: agent type reviewer does not allow write (it allows read, bash)");
    const [first] = requestsOf(world, "CHILD-R");
    expect(first!.body.model).toBe("claude-haiku-4-5");
    expect(toolNames(first!.body).sort()).toEqual(["bash", "read"]);
    const system = systemText(first!.body);
    expect(system.indexOf("REVIEWER-MARK")).toBeGreaterThan(system.indexOf(SUBAGENT_PROMPT));
    expect(lines.find((l) => l.type === "subagent_start")).toMatchObject({ name: "reviewer" });
  });

  it("a project's ./.zot/agents type is offered only once the project is trusted with that file, and not after it changes", async () => {
    world = await makeWorld();
    const dir = join(world.cwd, ".zot", "agents");
    writeType(dir, "reviewer.md", reviewer);
    const description = async (args: string[] = []) => {
      const before = world!.server.requests.length;
      world!.server.push({ text: "ok" });
      const run = await world!.run(["--mode", "json", "--no-ext", ...args, "hi"]);
      return { text: agentToolDescription(world!.server.requests[before]!.body), stderr: run.stderr + run.stdout };
    };
    const untrusted = await description();
    expect(untrusted.text).not.toContain("reviewer");
    expect(untrusted.stderr).toMatch(/project agent type .*reviewer\.md is not offered: this project has not been trusted; .*zot ext trust --project/);
    expect((await description(["--trust-project"])).text).toContain("- reviewer: Reviews a change");

    const trusted = await world.run(["ext", "trust", "--project", "--yes"]);
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain("agent type reviewer (reviewer.md): tools read, bash, model claude-haiku-4-5");
    expect((await description()).text).toContain("- reviewer: Reviews a change");

    writeType(dir, "reviewer.md", reviewer.replace("careful", "reckless"));
    const changed = await description();
    expect(changed.text).not.toContain("reviewer");
    expect(changed.stderr).toMatch(/reviewer\.md is not offered: it changed since you trusted this project/);
    writeType(dir, "helper.md", "---\ndescription: helps\n---\nhelp\n");
    expect((await description()).stderr).toMatch(/helper\.md is not offered: it was added after you trusted this project/);
  });
});

describe("agent records and the fan-out queue", () => {
  it("records are scoped to a project: another project lists none and may not resume one", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [agentCall("toolu_d", { prompt: "CHILD-D: remember kiwi", detach: true, name: "keeper" }), { text: "started" }],
      "CHILD-D": [{ text: "kiwi" }],
    }));
    const run = await world.run(["--mode", "json", "--no-ext", "PARENT: go"]);
    const agentId = jsonLines(run.stdout).find((l) => l.type === "subagent_start")!.agent_id;
    await eventually(() => processesIn(worldRoot(world!.cwd), true).length === 0 || undefined, 10_000, "the detached child to finish");

    const here = await world.run(["-p", "--no-ext", "/agents"]);
    expect(here.stdout).toContain(agentId);
    const other = join(worldRoot(world.cwd), "other");
    mkdirSync(other);
    const there = await world.run(["-p", "--no-ext", "--cwd", other, "/agents"]);
    expect(there.stdout.trim()).toBe("No agents in this project yet.");

    const client = rpc(world, ["--no-ext", "--cwd", other]);
    expect((await client.call({ type: "get_agents" })).data.agents).toEqual([]);
    client.end();
    expect(await client.exited).toBe(0);
    world.server.push(agentCall("toolu_resume", { prompt: "go on", resume: agentId }), { text: "refused" });
    const resumed = jsonLines((await world.run(["--mode", "json", "--no-ext", "--cwd", other, "PARENT: resume it"])).stdout);
    const refusal = resultOf(resumed, "toolu_resume");
    expect(refusal.status).toBe("failed");
    expect(textOf(refusal)).toBe(`agent: agent ${agentId} belongs to the project ${world.cwd}; resume it from there`);
  });

  it("past the fan-out limit a queued agent's subagent_start comes when it starts, after a slot frees", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [{ tool_calls: [
        { id: "toolu_1", name: "agent", args: { prompt: "CHILD-1: one", name: "one" } },
        { id: "toolu_2", name: "agent", args: { prompt: "CHILD-2: two", name: "two" } },
      ] }, { text: "both done" }],
      "CHILD-1": [{ text: "first", chunk_delay_ms: 100 }],
      "CHILD-2": [{ text: "second" }],
    }));
    const lines = jsonLines((await world.run(["--mode", "json", "--no-ext", "PARENT: go"], { env: { ZOT_AGENT_MAX_PARALLEL: "1" } })).stdout);
    const order = lines.filter((l) => l.type === "subagent_start" || l.type === "subagent_stop").map((l) => `${l.type}:${l.name}`);
    // Either may take the one slot first; the other starts only once the first has stopped.
    const [first, second] = order[0] === "subagent_start:one" ? ["one", "two"] : ["two", "one"];
    expect(order).toEqual([`subagent_start:${first}`, `subagent_stop:${first}`, `subagent_start:${second}`, `subagent_stop:${second}`]);
  });

  it("zot agents prune removes finished worktrees and keeps their branches; a dirty one stays without --force, and /agents prune --force removes it", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [{ tool_calls: [
        { id: "toolu_a", name: "agent", args: { prompt: "CHILD-A: add a", worktree: true } },
        { id: "toolu_b", name: "agent", args: { prompt: "CHILD-B: add b", worktree: true } },
      ] }, { text: "done" }],
      "CHILD-A": [{ tool_calls: [{ name: "bash", args: { command: "echo a > a.txt" } }] }, { text: "added a" }],
      "CHILD-B": [{ tool_calls: [{ name: "bash", args: { command: "echo b > b.txt" } }] }, { text: "added b" }],
    }));
    const git = (...args: string[]) => execFileSync("git", args, { cwd: world!.cwd, encoding: "utf8" });
    git("init", "-q", "-b", "main");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "start");
    const lines = jsonLines((await world.run(["--mode", "json", "--no-ext", "PARENT: go"])).stdout);
    const where = (id: string) => /\(branch (\S+), worktree (\S+), committed/.exec(textOf(resultOf(lines, id)))!.slice(1) as [string, string];
    const [branchA, pathA] = where("toolu_a");
    const [branchB, pathB] = where("toolu_b");
    writeFileSync(join(pathB, "b.txt"), "edited after the agent finished\n");

    const pruned = await world.run(["agents", "prune"]);
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toContain(`removed ${pathA} (`);
    expect(pruned.stdout).toContain(`branch ${branchA} stays`);
    expect(pruned.stdout).toMatch(new RegExp(`kept ${pathB.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(agent-[0-9a-f]{8}\\): .*; --force removes it`));
    expect(existsSync(pathA)).toBe(false);
    expect(existsSync(pathB)).toBe(true);
    expect(git("show", `${branchA}:a.txt`)).toBe("a\n");

    const forced = await world.run(["-p", "--no-ext", "/agents prune --force"]);
    expect(forced.stdout).toContain(`removed ${pathB} (`);
    expect(existsSync(pathB)).toBe(false);
    expect(git("branch", "--list", branchB)).toContain(branchB);
    expect((await world.run(["agents", "prune"])).stdout.trim()).toBe(`No finished agent worktrees in ${world.cwd}.`);
    expect(git("worktree", "list").trim().split("\n")).toHaveLength(1);
    const wrong = await world.run(["agents", "purge"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^zot: unknown command "agents purge"\nSubagent records and worktrees\./);
  });
});
