// The agent tool end to end: the real zot bundle delegates to real subagent child processes
// (`--swarm-child`), and one scripted model server answers parent and children alike (routed by a marker in each
// conversation's first user message).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CONTINUE_PROMPT } from "../../lib/app/subagents/agents-command.ts";
import { EXAMPLES } from "../examples/support.ts";
import { rpc } from "./rpc-client.ts";
import { jsonLines, makeWorld, requestText, type World } from "./support.ts";
import {
  agentCall, closeSubagentWorld, eventually, firstUserText, processesIn, resultOf, routedTurns, startJson, textOf, worldRoot,
} from "./subagent-support.ts";

let world: World | undefined;
afterEach(async () => {
  await closeSubagentWorld(world);
  world = undefined;
});


describe("subagents", () => {
  it("a foreground agent runs bash in a child zot; the parent gets its answer with a one-line summary", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [agentCall("toolu_agent", { prompt: "CHILD-A: say hello through bash" }), { text: "The child said hello." }],
      "CHILD-A": [{ tool_calls: [{ name: "bash", args: { command: "echo hello-from-child" } }] }, { text: "bash printed hello-from-child" }],
    }));
    const run = await world.run(["--mode", "json", "--no-ext", "PARENT: delegate the greeting"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    const progress = lines.filter((l) => l.type === "tool_progress" && l.tool_id === "toolu_agent").map((l) => l.text);
    expect(progress).toEqual(["bash echo hello-from-child"]);
    const result = resultOf(lines, "toolu_agent");
    expect(result.status).toBe("completed");
    expect(textOf(result)).toMatch(/^bash printed hello-from-child\n\n\[agent agent-[0-9a-f]{8} completed: 2 steps, 1 tool call, 60 tokens, \$[\d.]+\]$/);
    // The child's own lines never reach the parent's stdout.
    expect(lines.filter((l) => l.type === "session")).toHaveLength(1);
    expect(lines.some((l) => l.type === "tool_call" && l.tool_name === "bash")).toBe(false);
    expect(requestText(world.server.requests.at(-1)!.body)).toContain("bash printed hello-from-child");
    // Depth 1: the parent may delegate, the child may not.
    const toolNames = (r: { body: any }) => r.body.tools.map((t: any) => t.name);
    const [parentFirst, childFirst] = world.server.requests;
    expect(toolNames(parentFirst!)).toContain("agent");
    expect(firstUserText(childFirst!.body)).toBe("CHILD-A: say hello through bash");
    expect(toolNames(childFirst!)).toContain("bash");
    expect(toolNames(childFirst!)).not.toContain("agent");
    // The child kept its own transcript in an agents folder beside the parent's session file.
    const sessionId = lines[0]!.session_id;
    const agentId = lines.find((l) => l.type === "subagent_start")!.agent_id;
    // (The parent's checkpoint of the agent call is its own; the child records none.)
    const sessions = execFileSync("find", [join(world.home, "sessions"), "-name", "*.jsonl", "-not", "-path", "*/checkpoints/*"], { encoding: "utf8" }).trim().split("\n").sort();
    expect(sessions.map((p) => p.split("/").slice(-2).join("/"))).toEqual([`agents/${agentId}.jsonl`, expect.stringMatching(new RegExp(`/?${sessionId}\\.jsonl$`))].sort());
    const checkpoints = execFileSync("find", [join(world.home, "sessions"), "-path", "*/checkpoints/*.jsonl"], { encoding: "utf8" }).trim().split("\n");
    expect(checkpoints.map((p) => p.split("/").at(-1))).toEqual([`${sessionId}.jsonl`]);

    // /agents lists it, /agents show gives its answer.
    const list = await world.run(["-p", "--no-ext", "/agents"]);
    expect(list.stdout).toMatch(new RegExp(`^Agents \\(/agents show ID for one\\):\n  ${agentId}  completed +foreground`));
    const show = await world.run(["-p", "--no-ext", `/agents show ${agentId}`]);
    expect(show.stdout).toContain(`Agent ${agentId}: completed`);
    expect(show.stdout).toContain("bash printed hello-from-child");
    const tools = await world.run(["-p", "--no-ext", "/tools"]);
    expect(tools.stdout).toMatch(/\n  agent +built-in  Delegate a self-contained task/);
    const unknown = await world.run(["-p", "--no-ext", "/agents show agent-nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no agent "agent-nope" (/agents lists them)');
  });

  it("rpc stop_agent stops a running detached agent: its stop says cancelled, stamped with the conversation that created it", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [agentCall("toolu_detach", { prompt: "CHILD-S: think forever", detach: true }), { text: "started" }],
      "CHILD-S": [{ text: "thinking forever", hang_after: 0 }],
    }));
    const zot = rpc(world, ["--no-ext"]);
    await zot.call({ type: "prompt", message: "PARENT: start it" });
    const start = await zot.waitFor((l) => l.type === "subagent_start");
    await eventually(() => world!.server.requests.length >= 3 || undefined);
    await zot.waitFor((l) => l.type === "done");
    // Its events stay with the conversation that created it.
    const created = start.session_id;
    const switched = await zot.call({ type: "new_session" });
    expect(switched.data.session_id).not.toBe(created);
    const listed = await zot.call({ type: "get_agents" });
    expect(listed.data).toMatchObject({ running: 1, agents: [{ id: start.agent_id, status: "running" }] });
    const refused = await zot.call({ type: "stop_agent", agent_id: "agent-nope" });
    expect(refused).toMatchObject({ success: false, error: 'no running agent "agent-nope"' });
    expect((await zot.call({ type: "stop_agent", agent_id: start.agent_id })).data).toEqual({ stopping: true });
    const stop = await zot.waitFor((l) => l.type === "subagent_stop");
    expect(stop).toMatchObject({ agent_id: start.agent_id, agent_run_id: start.agent_run_id, status: "cancelled", session_id: created });
    zot.end();
    expect(await zot.exited).toBe(0);
  });

  it("subagent_start and subagent_stop pair by agent_run_id, carry the given name (not the id), carry the parent session, and frame the progress", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [agentCall("toolu_agent", { prompt: "CHILD-E: list", name: "lister" }), { text: "done" }],
      "CHILD-E": [{ tool_calls: [{ name: "bash", args: { command: "true" } }] }, { text: "listed" }],
    }));
    const run = await world.run(["--mode", "json", "--no-ext", "PARENT: go"]);
    const lines = jsonLines(run.stdout);
    const sessionId = lines[0]!.session_id;
    const order = lines.filter((l) => ["tool_call", "permission_decision", "subagent_start", "tool_progress", "subagent_stop", "tool_result"].includes(l.type))
      .map((l) => l.type);
    expect(order).toEqual(["tool_call", "permission_decision", "subagent_start", "tool_progress", "subagent_stop", "tool_result"]);
    const start = lines.find((l) => l.type === "subagent_start")!;
    const stop = lines.find((l) => l.type === "subagent_stop")!;
    expect(start.agent_id).toMatch(/^agent-[0-9a-f]{8}$/);
    expect(start).toMatchObject({ session_id: sessionId, name: "lister", agent_run_id: expect.stringMatching(/^run-[0-9a-f]{8}$/) });
    expect(stop).toMatchObject({ agent_id: start.agent_id, agent_run_id: start.agent_run_id, name: "lister", status: "completed", session_id: sessionId });
    expect(stop.error).toBeUndefined();
    expect(stop.sequence).toBeGreaterThan(start.sequence);
  });

  it("two agent calls in one response run at the same time", async () => {
    const script = (tag: string) => [
      { tool_calls: [{ name: "bash", args: { command: `date +%s%N > ${tag}.start; sleep 0.8; date +%s%N > ${tag}.end` } }] },
      { text: `${tag} finished` },
    ];
    world = await makeWorld(routedTurns({
      PARENT: [{ tool_calls: [
        { id: "toolu_one", name: "agent", args: { prompt: "CHILD-ONE: work" } },
        { id: "toolu_two", name: "agent", args: { prompt: "CHILD-TWO: work" } },
      ] }, { text: "both finished" }],
      "CHILD-ONE": script("one"),
      "CHILD-TWO": script("two"),
    }));
    const run = await world.run(["--mode", "json", "--no-ext", "PARENT: fan out"]);
    expect(run.code).toBe(0);
    const time = (name: string) => Number(readFileSync(join(world!.cwd, name), "utf8").trim()) / 1e6;
    // Each ran while the other was running.
    expect(time("one.start")).toBeLessThan(time("two.end"));
    expect(time("two.start")).toBeLessThan(time("one.end"));
    const lines = jsonLines(run.stdout);
    const starts = lines.filter((l) => l.type === "subagent_start");
    const firstStop = lines.findIndex((l) => l.type === "subagent_stop");
    expect(starts).toHaveLength(2);
    expect(lines.indexOf(starts[1]!)).toBeLessThan(firstStop);
    expect(new Set(starts.map((s) => s.agent_run_id)).size).toBe(2);
    expect(textOf(resultOf(lines, "toolu_one"))).toMatch(/^one finished/);
    expect(textOf(resultOf(lines, "toolu_two"))).toMatch(/^two finished/);
    // The results reach the model in the order it made the calls.
    const toolResults = world.server.requests.at(-1)!.body.messages.at(-1).content.map((b: any) => b.tool_use_id);
    expect(toolResults).toEqual(["toolu_one", "toolu_two"]);
  });

  it("a detached agent is listed after a restart without replayed events, its answer reaches the next turn once, and resume keeps its id with a new run id", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [
        agentCall("toolu_detach", { prompt: "CHILD-D: remember the word kiwi", detach: true }),
        { text: "started it" },
        { text: "noted the answer" },
        { text: "nothing new" },
      ],
      "CHILD-D": [{ text: "the word is kiwi" }, { text: "resumed: still kiwi" }, { text: "continued: kiwi" }],
      RESUMER: [(request) => agentCall("toolu_resume", { resume: agentIdIn(request.body), prompt: "again" }), { text: "resumed" }],
    }));
    const first = rpc(world, ["--no-ext"]);
    await first.call({ type: "prompt", message: "PARENT: start a background agent" });
    const detachResult = await first.waitFor((l) => l.type === "tool_result" && l.tool_id === "toolu_detach");
    expect(textOf(detachResult)).toMatch(/^Agent agent-[0-9a-f]{8} is running in the background/);
    const stop = await first.waitFor((l) => l.type === "subagent_stop");
    expect(stop.status).toBe("completed");
    const agentId = stop.agent_id as string;
    await first.waitFor((l) => l.type === "done");
    // The next prompt carries the answer, the one after does not.
    await first.call({ type: "prompt", message: "what came back?" });
    await eventually(() => first.lines.filter((l) => l.type === "done").length === 2 || undefined);
    await first.call({ type: "prompt", message: "anything else?" });
    await eventually(() => first.lines.filter((l) => l.type === "done").length === 3 || undefined);
    const parentRequests = world.server.requests.filter((r) => firstUserText(r.body).startsWith("PARENT"));
    const lastUser = (body: any) => JSON.stringify(body.messages.at(-1));
    expect(lastUser(parentRequests[2]!.body)).toContain("the word is kiwi");
    expect(lastUser(parentRequests[2]!.body)).toContain(`Detached agent ${agentId}`);
    expect(lastUser(parentRequests[3]!.body)).not.toContain("the word is kiwi");
    first.end();
    expect(await first.exited).toBe(0);

    // A restart lists it, and loading it replays nothing.
    const second = rpc(world, ["--no-ext"]);
    const listed = await second.call({ type: "get_agents" });
    expect(listed.data.agents).toEqual([expect.objectContaining({ id: agentId, status: "completed", detached: true, answer: "the word is kiwi", runs: 1 })]);
    expect(second.lines.some((l) => l.type === "subagent_start" || l.type === "subagent_stop")).toBe(false);
    await second.call({ type: "prompt", message: `RESUMER: resume ${agentId}` });
    const resumeResult = await second.waitFor((l) => l.type === "tool_result" && l.tool_id === "toolu_resume");
    expect(textOf(resumeResult)).toMatch(/^resumed: still kiwi/);
    const restart = second.lines.find((l) => l.type === "subagent_start")!;
    expect(restart.agent_id).toBe(agentId);
    expect(restart.agent_run_id).not.toBe(stop.agent_run_id);
    // The resumed child continued its transcript.
    const resumedRequest = world.server.requests.filter((r) => firstUserText(r.body).startsWith("CHILD-D")).at(-1)!;
    expect(requestText(resumedRequest.body)).toContain("the word is kiwi");
    await second.waitFor((l) => l.type === "done");
    // /agents resume ID continues it in the background, asking it to go on.
    const resumed = await second.call({ type: "command", name: "agents", args: `resume ${agentId}` });
    expect(resumed.data.text).toMatch(new RegExp(`^Agent ${agentId} is running in the background`));
    const third = await eventually(() => second.lines.filter((l) => l.type === "subagent_stop")[1]);
    expect(third).toMatchObject({ agent_id: agentId, status: "completed" });
    expect(new Set(second.lines.filter((l) => l.type === "subagent_start").map((l) => l.agent_run_id)).size).toBe(2);
    const continued = world.server.requests.filter((r) => firstUserText(r.body).startsWith("CHILD-D")).at(-1)!;
    expect(JSON.stringify(continued.body.messages.at(-1))).toContain(CONTINUE_PROMPT);
    second.end();
    expect(await second.exited).toBe(0);
  });

  it("cancelling the parent's call cancels the child; subagent_stop (cancelled) comes only once the runner has exited", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [agentCall("toolu_agent", { prompt: "CHILD-C: wait" })],
      "CHILD-C": [{ tool_calls: [{ name: "bash", args: { command: "sleep 30" } }] }],
    }));
    const zot = startJson(world, ["--no-ext", "PARENT: delegate a long task"]);
    await zot.waitFor((l) => l.type === "tool_progress" && l.text === "bash sleep 30");
    await eventually(() => processesIn(world!.cwd).some((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith("sleep")) || undefined);
    zot.child.kill("SIGINT");
    const stop = await zot.waitFor((l) => l.type === "subagent_stop");
    // The child and its bash are gone by the time stop is reported.
    expect(processesIn(world.cwd, true)).toEqual([]);
    expect(stop.status).toBe("cancelled");
    expect(resultOf(zot.lines, "toolu_agent") ?? (await zot.waitFor((l) => l.type === "tool_result"))).toMatchObject({ status: "cancelled" });
    expect(await zot.exited).toBe(130);
  });

  it("a child that outlives its limit is stopped as timed_out", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [agentCall("toolu_agent", { prompt: "CHILD-T: think forever" }), { text: "it timed out" }],
      "CHILD-T": [{ text: "thinking forever", hang_after: 0 }],
    }));
    const run = await world.run(["--mode", "json", "--no-ext", "PARENT: go"], { env: { ZOT_AGENT_TIMEOUT_MS: "1500" } });
    const lines = jsonLines(run.stdout);
    expect(lines.find((l) => l.type === "subagent_stop")).toMatchObject({ status: "timed_out", error: "the agent ran longer than its limit of 1.5 s" });
    const result = resultOf(lines, "toolu_agent");
    expect(result.status).toBe("timed_out");
    expect(textOf(result)).toContain("the agent ran longer than its limit");
  });

  it("kill -9 of a child gives failed with how it ended", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [agentCall("toolu_agent", { prompt: "CHILD-K: think forever" }), { text: "it died" }],
      "CHILD-K": [{ text: "thinking forever", hang_after: 0 }],
    }));
    const zot = startJson(world, ["--no-ext", "PARENT: go"]);
    await zot.waitFor((l) => l.type === "subagent_start");
    const [pid] = await eventually(() => {
      const found = processesIn(world!.cwd, true);
      return found.length > 0 && world!.server.requests.length >= 2 ? found : undefined;
    });
    process.kill(pid!, "SIGKILL");
    const stop = await zot.waitFor((l) => l.type === "subagent_stop");
    expect(stop).toMatchObject({ status: "failed", error: expect.stringMatching(/^the agent process was killed by SIGKILL/) });
    expect(await zot.exited).toBe(0);
    expect(resultOf(zot.lines, "toolu_agent").status).toBe("failed");
  });

  it("kill -9 of a child leaves nothing it started: a bash command of the child is stopped too", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [agentCall("toolu_agent", { prompt: "CHILD-B: wait in bash" }), { text: "it died" }],
      "CHILD-B": [{ tool_calls: [{ name: "bash", args: { command: "sleep 300 # child-bash" } }] }],
    }));
    const zot = startJson(world, ["--no-ext", "PARENT: go"]);
    await zot.waitFor((l) => l.type === "subagent_start");
    const isSleep = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("sleep");
    await eventually(() => processesIn(world!.cwd).some(isSleep) || undefined, 10_000, "the child's bash command");
    const [childPid] = processesIn(world.cwd, true);
    process.kill(childPid!, "SIGKILL");
    expect(await zot.waitFor((l) => l.type === "subagent_stop")).toMatchObject({ status: "failed" });
    expect(await zot.exited).toBe(0);
    // afterEach checks that nothing is left under the world, the sleep included.
  });

  it("a parent killed with SIGKILL leaves no child: the child exits when its stdin closes", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [agentCall("toolu_agent", { prompt: "CHILD-O: think forever" })],
      "CHILD-O": [{ text: "thinking forever", hang_after: 0 }],
    }));
    const zot = startJson(world, ["--no-ext", "PARENT: go"]);
    await zot.waitFor((l) => l.type === "subagent_start");
    await eventually(() => world!.server.requests.length >= 2 || undefined);
    expect(processesIn(world.cwd, true)).toHaveLength(1);
    zot.child.kill("SIGKILL");
    await zot.exited;
    await eventually(() => processesIn(world!.cwd, true).length === 0 || undefined, 10_000, "the orphaned child to exit");
  });

  it("a subagent child given a broken spec says so and exits 1", async () => {
    world = await makeWorld([]);
    const run = await world.run(["--swarm-child"], { input: "not json\n" });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^zot: the swarm child spec is not JSON: /);
  });

  it("on exit running agents get 2 s, are then stopped, and extensions see their stop before shutdown", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [agentCall("toolu_detach", { prompt: "CHILD-X: think forever", detach: true }), { text: "started" }],
      "CHILD-X": [{ text: "thinking forever", hang_after: 0 }],
    }));
    const record = join(world.cwd, "..", "watcher.jsonl");
    const dir = join(world.cwd, "..", "watcher");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "watcher.mjs"), `
      import { appendFileSync, readlinkSync } from "node:fs";
      import { createInterface } from "node:readline";
      const pid = readlinkSync("/proc/self/ns/pid"); // each copy runs in a PID namespace of its own, where its pid is the same number
      const send = (f) => process.stdout.write(JSON.stringify(f) + "\\n");
      send({ type: "hello", name: "watcher", version: "1.0.0", capabilities: ["events"] });
      createInterface({ input: process.stdin }).on("line", (line) => {
        const msg = JSON.parse(line);
        appendFileSync(${JSON.stringify(record)}, JSON.stringify({ type: msg.type, event: msg.event, status: msg.status, at: Date.now(), pid }) + "\\n");
        if (msg.type === "hello_ack") {
          send({ type: "subscribe", events: ["subagent_start", "subagent_stop"] });
          send({ type: "ready" });
        } else if (msg.type === "shutdown") {
          send({ type: "shutdown_ack" });
          process.exit(0);
        }
      });`);
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "watcher", exec: process.execPath, args: ["watcher.mjs"] }));
    const zot = rpc(world, ["--no-ext", "-e", dir]);
    await zot.call({ type: "prompt", message: "PARENT: start it" });
    await zot.waitFor((l) => l.type === "done");
    await eventually(() => world!.server.requests.length >= 3 || undefined);
    const ended = Date.now();
    zot.end();
    expect(await zot.exited).toBe(0);
    const all = readFileSync(record, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    // The child loads the extension too; the parent's instance is the one that saw the agent start.
    const parentPid = all.find((f) => f.event === "subagent_start")!.pid;
    const frames = all.filter((f) => f.pid === parentPid);
    expect(new Set(all.map((f) => f.pid)).size).toBe(2);
    const seen = frames.filter((f) => f.type !== "hello_ack").map((f) => f.event ?? f.type);
    expect(seen).toEqual(["subagent_start", "subagent_stop", "shutdown"]);
    const stop = frames.find((f) => f.event === "subagent_stop")!;
    expect(stop.status).toBe("cancelled");
    expect(stop.at - ended).toBeGreaterThanOrEqual(1_900);
  });

  it("a guard extension blocks a child's rm -rf: children load extensions like every mode", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [agentCall("toolu_agent", { prompt: "CHILD-G: clean up" }), { text: "the guard stopped it" }],
      "CHILD-G": [
        { tool_calls: [{ id: "danger", name: "bash", args: { command: "touch ran.txt; rm -rf /" } }] },
        { text: "the guard refused" },
      ],
    }));
    const run = await world.run(["--mode", "json", "-e", join(EXAMPLES, "guard"), "PARENT: clean"]);
    expect(run.code).toBe(0);
    const childSecond = world.server.requests.filter((r) => firstUserText(r.body).startsWith("CHILD-G"))[1]!;
    expect(requestText(childSecond.body)).toContain("refused by the guard extension");
    expect(existsSync(join(world.cwd, "ran.txt"))).toBe(false);
    expect(textOf(resultOf(jsonLines(run.stdout), "toolu_agent"))).toMatch(/^the guard refused/);
  });

  it("worktree: true runs the child on a new branch in a fresh git worktree and commits its changes there on completion; outside git it is a tool error", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [
        agentCall("toolu_outside", { prompt: "CHILD-W: never runs", worktree: true }),
        { text: "not a repository" },
        agentCall("toolu_wt", { prompt: "CHILD-W: where am I", worktree: true }),
        { text: "done" },
      ],
      "CHILD-W": [
        { tool_calls: [{ name: "bash", args: { command: "git branch --show-current > here.txt; pwd >> here.txt" } }] },
        { text: "wrote here.txt" },
      ],
    }));
    const outside = await world.run(["--mode", "json", "--no-ext", "PARENT: outside git"]);
    const refused = resultOf(jsonLines(outside.stdout), "toolu_outside");
    expect(refused.status).toBe("failed");
    expect(textOf(refused)).toBe(`agent: worktree needs a git repository, and ${world.cwd} is not inside one`);

    const git = (...args: string[]) => execFileSync("git", args, { cwd: world!.cwd, encoding: "utf8" });
    git("init", "-q", "-b", "main");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "start");
    const inside = await world.run(["--mode", "json", "--no-ext", "PARENT: inside git"]);
    const result = resultOf(jsonLines(inside.stdout), "toolu_wt");
    const match = /\(branch (zot\/agent-[0-9a-f]{8}), worktree (\S+), committed ([0-9a-f]{7,})\)$/.exec(textOf(result));
    expect(match, textOf(result)).not.toBeNull();
    const [, branch, path, sha] = match!;
    expect(readFileSync(join(path!, "here.txt"), "utf8")).toBe(`${branch}\n${path}\n`);
    expect(existsSync(join(world.cwd, "here.txt"))).toBe(false);
    expect(git("branch", "--list", branch!)).toContain(branch);
    // The branch holds the child's file in a commit named after the task, ready to merge.
    expect(git("show", `${branch}:here.txt`)).toBe(`${branch}\n${path}\n`);
    expect(git("log", "-1", "--format=%h %s", branch!).trim()).toMatch(new RegExp(`^${sha}\\b.*where am I`));
    expect(git("status", "--porcelain").trim()).toBe("");
  });
});

describe("the agent tool from extensions", () => {
  /** An extension whose /delegate answers with a tool_prompt for agent and whose /viacall uses call_tool. */
  function writeDelegator(w: World): string {
    const dir = join(w.cwd, "..", "delegator");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "delegator.mjs"), `
      import { createInterface } from "node:readline";
      const send = (f) => process.stdout.write(JSON.stringify(f) + "\\n");
      let pending;
      send({ type: "hello", name: "delegator", version: "1.0.0", capabilities: ["commands", "call_tool"] });
      createInterface({ input: process.stdin }).on("line", (line) => {
        const msg = JSON.parse(line);
        if (msg.type === "hello_ack") {
          send({ type: "register_command", name: "delegate", description: "tool_prompt for agent" });
          send({ type: "register_command", name: "viacall", description: "call_tool agent" });
          send({ type: "ready" });
        } else if (msg.type === "command_invoked" && msg.name === "delegate") {
          send({ type: "command_response", id: msg.id, action: "tool_prompt", prompt: "PARENT-TP: report what the child found",
            tool_name: "agent", tool_args: { prompt: "CHILD-TP: look around" } });
        } else if (msg.type === "command_invoked") {
          pending = msg.id;
          send({ type: "call_tool", id: "c1", name: "agent", args: { prompt: "CHILD-CT: look around" } });
        } else if (msg.type === "tool_result" && msg.id === "c1") {
          send({ type: "command_response", id: pending, action: "display", display: "child said: " + msg.content[0].text });
        } else if (msg.type === "shutdown") {
          send({ type: "shutdown_ack" });
          process.exit(0);
        }
      });`);
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "delegator", exec: process.execPath, args: ["delegator.mjs"] }));
    return dir;
  }

  it("a command's tool_prompt and an extension's call_tool can both run the agent tool", async () => {
    world = await makeWorld(routedTurns({
      "PARENT-TP": [{ text: "the child found a tidy folder" }],
      "CHILD-TP": [{ text: "tidy folder" }],
      "CHILD-CT": [{ text: "nothing to see" }],
    }));
    const ext = writeDelegator(world);
    const viaPrompt = await world.run(["-p", "--no-ext", "-e", ext, "/delegate"]);
    expect(viaPrompt.code, viaPrompt.stderr).toBe(0);
    expect(viaPrompt.stdout).toBe("the child found a tidy folder\n");
    const parent = world.server.requests.find((r) => firstUserText(r.body).startsWith("PARENT-TP"))!;
    expect(requestText(parent.body)).toMatch(/tidy folder\\n\\n\[agent agent-[0-9a-f]{8} completed/);

    const viaCall = await world.run(["-p", "--no-ext", "-e", ext, "/viacall"]);
    expect(viaCall.code, viaCall.stderr).toBe(0);
    expect(viaCall.stdout).toMatch(/^child said: nothing to see\n\n\[agent agent-[0-9a-f]{8} completed: 1 step/);
  });
});

/** The agent id a parent's earlier tool result named, for a resume turn. */
function agentIdIn(body: any): string {
  const text = firstUserText(body);
  return /agent-[0-9a-f]{8}/.exec(text)?.[0] ?? "missing";
}
