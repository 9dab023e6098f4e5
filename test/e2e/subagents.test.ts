// The agent tool end to end: the real zot bundle delegates to real swarm-child processes, and
// one scripted model server answers parent and children alike.
import { afterEach, describe, expect, it } from "vitest";
import { jsonLines, makeWorld, requestText, type World } from "./support.ts";
import { routedTurns, swarmChildren } from "./swarm-support.ts";

let world: World | undefined;
afterEach(async () => {
  if (world) expect(swarmChildren(world.cwd)).toEqual([]);
  await world?.close();
  world = undefined;
});

describe("subagents", () => {
  it("a foreground agent runs bash in a child zot and the parent gets its answer with a summary", async () => {
    world = await makeWorld(routedTurns({
      "PARENT": [
        { tool_calls: [{ id: "toolu_agent", name: "agent", args: { prompt: "CHILD-A: say hello through bash" } }] },
        { text: "The child said hello." },
      ],
      "CHILD-A": [
        { tool_calls: [{ name: "bash", args: { command: "echo hello-from-child" } }] },
        { text: "bash printed hello-from-child" },
      ],
    }));
    const run = await world.run(["--mode", "json", "--no-ext", "PARENT: delegate the greeting"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    const progress = lines.filter((l) => l.type === "tool_progress" && l.tool_id === "toolu_agent").map((l) => l.text);
    expect(progress).toEqual(["bash echo hello-from-child"]);
    const result = lines.find((l) => l.type === "tool_result" && l.tool_id === "toolu_agent")!;
    expect(result.status).toBe("completed");
    const text = result.result.content[0].text as string;
    expect(text).toMatch(/^bash printed hello-from-child\n\n\[agent agent-[0-9a-f]{8} completed: 2 steps, 1 tool call, 60 tokens, \$[\d.]+\]$/);
    // The child's own lines never reach the parent's stdout.
    expect(lines.filter((l) => l.type === "session")).toHaveLength(1);
    expect(lines.some((l) => l.type === "tool_call" && l.tool_name === "bash")).toBe(false);
    const last = world.server.requests.at(-1)!;
    expect(requestText(last.body)).toContain("bash printed hello-from-child");
  });
});
