// What a user types and sees in the REPL, in a real pseudo-terminal (tmux) at 80 and 100
// columns: an extension command's output stays in the transcript; `!command` runs the user's shell
// command and its output goes to the model with the next prompt; `@path` completes with Tab and
// attaches the file; an idle status line shows the model, the context used, the cost and the
// extensions' state.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Turn } from "../support/model-server.ts";
import { EXITED, killPanes, Pane } from "./pane.ts";
import { KIT, makeWorld, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  killPanes();
  await world?.close();
  world = undefined;
});

async function repl(width: number, script: Turn[], args: string[] = []): Promise<Pane> {
  world = await makeWorld(script);
  const pane = await Pane.start(world, ["--no-session", ...args], {}, [["resize-window", "-x", String(width)]]);
  await pane.until("/help for commands");
  return pane;
}

const sent = (w: World, n: number) => JSON.stringify(w.server.requests[n]?.body.messages ?? []);

describe.each([80, 100])("the REPL at %i columns", (width) => {
  it("an extension command's output stays in the transcript after the next prompt", async () => {
    const pane = await repl(width, [{ text: "Fine." }], ["-e", KIT]);
    await pane.submit("/Say hello there", "said: hello there");
    const text = await pane.submit("next", "Fine.");
    expect(text).toContain("[kit] said: hello there");
    expect(text.indexOf("said: hello there")).toBeLessThan(text.indexOf("Fine."));
  });

  it("!command runs the user's shell command, shows its output, and gives it to the model with the next prompt", async () => {
    const pane = await repl(width, [{ text: "It printed a greeting." }]);
    await pane.submit("!echo shell-said-$((40+2))", "shell-said-42");
    expect(world!.server.requests).toHaveLength(0);
    await pane.submit("what did it print?", "It printed a greeting.");
    expect(sent(world!, 0)).toContain("shell-said-42");
    expect(sent(world!, 0)).toContain("echo shell-said-$((40+2))");
    expect(sent(world!, 0)).toContain("what did it print?");
  });

  it("@ and Tab complete a path under the project; the prompt attaches the file", async () => {
    const pane = await repl(width, [{ text: "A sum." }]);
    mkdirSync(join(world!.cwd, "src"));
    writeFileSync(join(world!.cwd, "src", "alpha.ts"), "export const alpha = 1;\n");
    writeFileSync(join(world!.cwd, "src", "beta.ts"), "export const beta = 2;\n");
    await pane.type("explain @sr");
    await pane.keys("Tab");
    await pane.until("explain @src/");
    await pane.keys("Tab");
    await pane.until("files: alpha.ts  beta.ts");
    await pane.type("al");
    await pane.keys("Tab");
    await pane.until("explain @src/alpha.ts");
    await pane.submit("now", "A sum.");
    expect(sent(world!, 0)).toContain("explain @src/alpha.ts now");
    expect(sent(world!, 0)).toContain("export const alpha = 1;");
  });

  it("/rewind opens a picker of prompts; choosing one puts the files back and brings its prompt back to the input line", async () => {
    world = await makeWorld([
      { tool_calls: [{ id: "c1", name: "write", args: { path: "notes.txt", content: "changed\n" } }], stop: "tool_use" }, { text: "Done writing." },
    ]);
    writeFileSync(join(world.cwd, "notes.txt"), "original\n");
    const pane = await Pane.start(world, [], {}, [["resize-window", "-x", String(width)]]);
    await pane.until("/help for commands");
    await pane.submit("rewrite the notes", "Done writing.");
    expect(readFileSync(join(world.cwd, "notes.txt"), "utf8")).toBe("changed\n");
    await pane.submit("/rewind", "to before which prompt?");
    await pane.keys("Enter");
    await pane.until("restored notes.txt");
    await pane.until("› rewrite the notes", 10_000, () => pane.screen());
    expect(readFileSync(join(world.cwd, "notes.txt"), "utf8")).toBe("original\n");
  });

  it("/clear clears the screen; a cancelled command's line says (no output) once; on exit zot says how to continue", async () => {
    world = await makeWorld([{ text: "Fine." }, { tool_calls: [{ id: "s1", name: "bash", args: { command: "sleep 30" } }], stop: "tool_use" }]);
    const pane = await Pane.start(world, [], {}, [["resize-window", "-x", String(width)]]);
    await pane.until("/help for commands");
    await pane.submit("hi", "Fine.");
    await pane.submit("/clear", (t) => !t.includes("Fine."), 10_000, () => pane.screen());
    await pane.submit("wait", "sleep 30", 10_000, () => pane.screen());
    await pane.keys("Escape");
    const cancelled = await pane.until("→ cancelled", 10_000, () => pane.screen());
    expect(cancelled).toContain("→ cancelled (no output)");
    await pane.keys("C-d");
    const end = await pane.until(EXITED);
    expect(end).toMatch(/Continue this conversation with zot -c \(or zot --resume \S+\)\./);
  });

  it("command output, errors and extension notes wrap at words within the width: the terminal never breaks a word", async () => {
    const pane = await repl(width, [], ["-e", KIT]);
    await pane.submit("/help", "/rewind");
    await pane.submit(`/Say ${"a long note from the extension that goes on and on ".repeat(3)}`, "[kit] said:");
    await pane.submit("/model not a model id at all, with several words to wrap", "zot:");
    const rows = (await pane.rows()).map((r) => r.trimEnd());
    // A row as wide as the terminal is one the terminal broke; zot's own rows stop a column short.
    expect(rows.filter((r) => [...r].length >= width)).toEqual([]);
    expect(await pane.text()).toContain("/rewind");
  });

  it("idle, a status line shows the model, the context used, the session's cost and the extensions' state; it hides while working", async () => {
    world = await makeWorld([{ text: ["a ", "slow ", "answer"], chunk_delay_ms: 300 }]);
    const broken = join(world.cwd, "..", "broken-ext");
    mkdirSync(broken);
    writeFileSync(join(broken, "extension.json"), JSON.stringify({ name: "broken-ext", exec: "./missing-program" }));
    const pane = await Pane.start(world, ["--no-session", "-e", KIT, "-e", broken], {}, [["resize-window", "-x", String(width)]]);
    await pane.until("/help for commands");
    const idle = await pane.until("extensions:", 10_000, () => pane.screen());
    expect(idle).toContain("anthropic/claude-sonnet-4-6 · context 0%");
    expect(idle).toContain("extensions: 1 running, 1 failed");
    const working = await pane.submit("hi", "working…", 10_000, () => pane.screen());
    expect(working).not.toContain("extensions: 1 running");
    const after = await pane.until((t) => t.includes("answer") && /context \d+% \([\d.]+k?\/[\d.]+[kM]\) · \$0\.\d{4}/.test(t), 10_000, () => pane.screen());
    expect(after).toContain("extensions: 1 running, 1 failed");
  });
});

describe("/init", () => {
  it("the model looks at the project and writes AGENTS.md; an existing one is improved, and the user's words go along", async () => {
    world = await makeWorld([
      { tool_calls: [{ id: "call_1", name: "write", args: { path: "AGENTS.md", content: "# Agents\n\nRun `npm test`.\n" } }], stop: "tool_use" },
      { text: "Wrote AGENTS.md: tests." },
      { text: "Nothing to change." },
    ]);
    writeFileSync(join(world.cwd, "README.md"), "# demo\n");
    const first = await world.run(["-p", "/init"]);
    expect(first.code, first.stderr).toBe(0);
    expect(sent(world, 0)).toContain("Write an AGENTS.md at the root of this project");
    expect(sent(world, 0)).toContain("Fold in what is still true from: README.md.");
    expect(readFileSync(join(world.cwd, "AGENTS.md"), "utf8")).toContain("Run `npm test`.");
    const again = await world.run(["-p", "/init stress the release steps"]);
    expect(again.code, again.stderr).toBe(0);
    expect(sent(world, 2)).toContain("Improve this project's AGENTS.md");
    expect(sent(world, 2)).toContain("The user adds: stress the release steps");
  });
});
