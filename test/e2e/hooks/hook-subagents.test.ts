// Hooks apply inside subagents: a child zot loads the same hooks, so a PreToolUse guard cannot be
// bypassed by delegating; in the child, the start and end of its run are SubagentStart and
// SubagentStop (with its agent id and type) instead of SessionStart and Stop.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { World } from "../support.ts";
import { agentCall, closeSubagentWorld, routedTurns } from "../subagent-support.ts";
import { hook, hooksWorld, LANGUAGES } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await closeSubagentWorld(world);
  world = undefined;
});

describe.each(LANGUAGES)("hooks in subagents ($lang)", ({ hook: cmd }) => {
  it("a PreToolUse guard holds inside a subagent, and the child's run is SubagentStart and SubagentStop", async () => {
    const w = await hooksWorld(routedTurns({
      PARENT: [agentCall("toolu_agent", { prompt: "CHILD: remove the build folder" }), { text: "the child reported back" }],
      CHILD: [{ tool_calls: [{ id: "child_bash", name: "bash", args: { command: "touch child-ran.txt; rm -rf build" } }] }, { text: "it was refused" }],
    }), {
      PreToolUse: [{ matcher: "Bash", hooks: [hook(cmd("guard", "exit", "2", "rm -rf is refused everywhere"))] }],
      SubagentStart: [{ hooks: [hook(cmd("sub-start", "exit", "0"))] }],
      SubagentStop: [{ hooks: [hook(cmd("sub-stop", "exit", "0"))] }],
      Stop: [{ hooks: [hook(cmd("stop", "exit", "0"))] }],
    });
    world = w;
    const r = await w.run(["-p", "PARENT: delegate the cleanup"]);
    expect(r.code).toBe(0);
    expect(existsSync(join(w.cwd, "child-ran.txt"))).toBe(false);
    const childRequest = w.server.requests.find((q) => JSON.stringify(q.body).includes("child_bash") && JSON.stringify(q.body).includes("tool_result"));
    expect(JSON.stringify(childRequest?.body)).toContain("rm -rf is refused everywhere");
    const records = w.records();
    expect(records.map((rec) => rec.name)).toEqual(["sub-start", "guard", "sub-stop", "stop"]);
    const [start, , stop] = records;
    expect(start!.input).toMatchObject({ hook_event_name: "SubagentStart", agent_id: expect.stringMatching(/^agent-/) });
    expect(stop!.input).toMatchObject({ hook_event_name: "SubagentStop", agent_id: start!.input.agent_id, stop_hook_active: false,
      last_assistant_message: "it was refused" });
  });
});
