// What the REPL shows in a real pseudo-terminal: a streamed answer rendered as markdown, the
// diff of an edit (before the question with --no-yolo), and provider SDK warnings as one note
// per session, never on the prompt line.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Turn } from "../support/model-server.ts";
import { killPanes, Pane } from "./pane.ts";
import { makeWorld, type World } from "./support.ts";

const worlds: World[] = [];
afterEach(async () => {
  killPanes();
  for (const w of worlds.splice(0)) await w.close();
});

/** A project with a scripted model server (and `files` in it), closed after the test. */
async function project(script: Turn[], files: Record<string, string> = {}): Promise<World> {
  const w = await makeWorld(script);
  worlds.push(w);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(w.cwd, name), text);
  return w;
}

/** The REPL started in `w`, once it shows its banner. */
async function replIn(w: World, args: string[] = [], env: Record<string, string> = {}): Promise<Pane> {
  const pane = await Pane.start(w, ["--no-session", ...args], env);
  await pane.until("/help for commands");
  return pane;
}

const ANSWER = [
  "Here is **the plan** for `a.txt`:\n\n",
  "- first step\n- second ",
  "step\n\n```ts\nconst answer",
  " = 42;\n```\n\nDone.",
];

describe("the REPL renders what happened", () => {
  it("a streamed answer is rendered as markdown: no ** or fence markers left on screen", async () => {
    const pane = await replIn(await project([{ text: ANSWER, chunk_delay_ms: 60 }]));
    const text = await pane.submit("explain", (t) => t.includes("Done.") && !t.includes("working…"));
    expect(text).toContain("Here is the plan for a.txt:");
    expect(text).toMatch(/• first step\n• second step/);
    expect(text).toContain("│ const answer = 42;");
    expect(text).not.toContain("**");
    expect(text).not.toContain("```");
    expect(text).not.toContain("`a.txt`");
  });

  it("code fences are highlighted by language when colour is on", async () => {
    const pane = await replIn(await project([{ text: "```ts\nconst x = 1;\n```\n\nok." }]), [], { NO_COLOR: "" });
    await pane.submit("code", (t) => t.includes("ok.") && !t.includes("working…"));
    // `const` is a keyword (magenta), `1` a number (yellow); tmux may add or merge SGR codes.
    const styled = await pane.text(true);
    expect(styled).toMatch(/\x1b\[(?:[0-9;]*;)?35m(?:\x1b\[[0-9;]*m)*const/);
    expect(styled).toMatch(/\x1b\[(?:[0-9;]*;)?33m(?:\x1b\[[0-9;]*m)*1\b/);
    expect(await pane.text()).toContain("│ const x = 1;");
  });

  it("an edit shows the -/+ lines of the actual change, with line numbers", async () => {
    const pane = await replIn(await project([
      { tool_calls: [{ name: "edit", args: { path: "a.txt", old_text: "beta", new_text: "BETA" } }], stop: "tool_use" },
      { text: "Edited." },
    ], { "a.txt": "alpha\nbeta\ngamma\n" }));
    const text = await pane.submit("change it", "Edited.");
    expect(text).toMatch(/✓ edit a\.txt \(1 edit\) → completed/);
    expect(text).toMatch(/^ +2 - beta$/m);
    expect(text).toMatch(/^ +2 \+ BETA$/m);
    expect(text).toMatch(/^ +1   alpha$/m);
    expect(text.indexOf("- beta")).toBeGreaterThan(text.indexOf("✓ edit"));
  });

  it("--no-yolo shows the diff before the y/n question, and the change waits for the answer", async () => {
    const world = await project([
      { tool_calls: [{ name: "write", args: { path: "b.txt", content: "one\nTWO\nthree\n" } }], stop: "tool_use" },
      { text: "Written." },
    ], { "b.txt": "one\ntwo\nthree\n" });
    const pane = await replIn(world, ["--no-yolo"]);
    const asking = await pane.submit("rewrite it", "Allow write: b.txt");
    expect(asking).toMatch(/^ +2 - two$/m);
    expect(asking).toMatch(/^ +2 \+ TWO$/m);
    expect(asking.indexOf("+ TWO")).toBeLessThan(asking.indexOf("Allow write: b.txt"));
    expect(readFileSync(join(world.cwd, "b.txt"), "utf8")).toBe("one\ntwo\nthree\n");
    await pane.type("y");
    const text = await pane.until("Written.");
    expect(readFileSync(join(world.cwd, "b.txt"), "utf8")).toBe("one\nTWO\nthree\n");
    // Shown once: not again under the tool line.
    expect(text.match(/\+ TWO/g)).toHaveLength(1);
  });

  it("a model the SDK warns about: the warning shows once per session, never on the prompt line", async () => {
    const world = await project([
      { tool_calls: [{ name: "bash", args: { command: "echo step" } }], stop: "tool_use" },
      { text: "First done." },
      { text: "Second done." },
    ]);
    const pane = await replIn(world, ["--model", "claude-sonnet-4-5"]);
    await pane.submit("go", "First done.");
    const text = await pane.submit("again", (t) => t.includes("Second done.") && !t.includes("working…"));
    expect(world.server.requests).toHaveLength(3);
    expect(text.match(/claude-sonnet-4-5' is deprecated/g)).toHaveLength(1);
    for (const line of text.split("\n").filter((l) => l.includes("deprecated"))) expect(line).not.toMatch(/^›/);
  });
});
