// What the REPL says while and after tools run: the live progress line, /tools, and the counts
// on tool result lines. The real bundle in tmux against the scripted model server.
import { afterEach, describe, expect, it } from "vitest";
import type { Turn } from "../support/model-server.ts";
import { killPanes, Pane } from "./pane.ts";
import { makeWorld, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  killPanes();
  await world?.close();
  world = undefined;
});

async function repl(script: Turn[] = [], args: string[] = []): Promise<Pane> {
  world = await makeWorld(script);
  const pane = await Pane.start(world, ["--no-session", ...args]);
  await pane.until("/help for commands");
  return pane;
}

describe("the REPL's status", () => {
  it("while the model works, an animated line shows the elapsed seconds and the output tokens so far; it goes when done", async () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i} `);
    const pane = await repl([{ text: words, chunk_delay_ms: 60 }]);
    const first = await pane.submit("talk slowly", /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] working… \d+s · \d+ tokens? · esc to cancel/, 10_000, () => pane.screen());
    const spinnerOf = (t: string) => /([⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]) working…/.exec(t)?.[1];
    const tokensOf = (t: string) => Number(/(\d+) tokens? · esc/.exec(t)?.[1] ?? 0);
    // The spinner moves and the count grows while the answer streams.
    const later = await pane.until((t) => spinnerOf(t) !== undefined && spinnerOf(t) !== spinnerOf(first) && tokensOf(t) > tokensOf(first),
      10_000, () => pane.screen());
    expect(tokensOf(later)).toBeGreaterThan(0);
    await pane.until((t) => t.includes("word39") && !t.includes("working…"), 15_000);
  });

  it("a tool result line counts what matters: the lines a write put in the file, and how much of a cut output the model saw", async () => {
    const pane = await repl([
      { tool_calls: [{ name: "write", args: { path: "six.txt", content: "1\n2\n3\n4\n5\n6\n" } }], stop: "tool_use" },
      { tool_calls: [{ name: "bash", args: { command: "seq 3000" } }], stop: "tool_use" },
      { tool_calls: [{ name: "bash", args: { command: "seq 3" } }], stop: "tool_use" },
      { text: "done counting" },
    ]);
    const text = await pane.submit("count", "done counting");
    expect(text).toMatch(/✓ write six\.txt.* → completed \(6 lines\)/);
    expect(text).toMatch(/✓ bash seq 3000 → completed \(2000 of 3000 lines shown to the model\)/);
    expect(text).toMatch(/✓ bash seq 3 → completed \(3 lines\)/);
  });

  it("/tools lists one line per tool with its source and first sentence, cut to the width; /tools NAME shows it in full", async () => {
    const pane = await repl();
    const listed = await pane.submit("/tools", "/tools NAME for one in full");
    for (const name of ["read", "write", "edit", "bash", "skill", "agent"]) expect(listed).toMatch(new RegExp(`^  ${name} +built-in  \\S`, "m"));
    // One row each: no line of the list runs past the 120-column pane.
    const rows = listed.split("\n").filter((l) => /^  (read|write|edit|bash|skill|agent) /.test(l));
    expect(rows).toHaveLength(6);
    for (const row of rows) expect([...row].length).toBeLessThan(120);
    const full = await pane.submit("/tools bash", "Arguments (JSON Schema):");
    expect(full).toContain("bash (built-in)");
    expect(full).toMatch(/"command": \{/);
    await pane.submit("/tools nope", /zot: no tool "nope" \(tools: read, /);
  });
});
