// Subagents in the REPL (a real terminal through tmux): the status line counts running agents,
// a finished detached agent leaves a note, and /agents lists it.
import { afterEach, describe, expect, it } from "vitest";
import { killPanes, Pane } from "./pane.ts";
import { makeWorld, type World } from "./support.ts";
import { processesIn, routedTurns, worldRoot } from "./subagent-support.ts";

let world: World | undefined;
afterEach(async () => {
  killPanes();
  if (world) expect(processesIn(worldRoot(world.cwd), true)).toEqual([]);
  await world?.close();
  world = undefined;
});

describe("subagents in the REPL", () => {
  it("the status line counts a running detached agent, its end is noted, and /agents lists it", async () => {
    world = await makeWorld(routedTurns({
      PARENT: [{ tool_calls: [{ name: "agent", args: { prompt: "CHILD-R: take your time", detach: true } }] }, { text: "It runs in the background." }],
      "CHILD-R": [{ text: ["slow ", "and ", "steady ", "answer"], chunk_delay_ms: 250 }],
    }));
    const pane = await Pane.start(world, ["--no-ext"]);
    await pane.until("/help for commands");
    await pane.submit("PARENT: start a background agent", "1 agent running (/agents)", 15_000);
    const note = await pane.until(/agent (agent-[0-9a-f]{8}) completed \(\/agents show agent-[0-9a-f]{8}\)/, 20_000);
    const id = /agent (agent-[0-9a-f]{8}) completed/.exec(note)![1]!;
    await pane.until((t) => !t.includes("agent running"));
    await pane.submit("/agents", new RegExp(`${id}  completed +detached`));
    await pane.keys("C-d");
    expect(await pane.exitCode()).toBe(0);
  });
});
