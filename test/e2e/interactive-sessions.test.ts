// Resuming in the REPL shows the conversation, and `/resume` and `/model` without an argument are
// pickers: the real bundle in tmux against the scripted model server.
import { afterEach, describe, expect, it } from "vitest";
import { killPanes, Pane } from "./pane.ts";
import { makeWorld, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  killPanes();
  await world?.close();
  world = undefined;
});

/** Saves a conversation of one prompt (with a bash call) and its answer. */
async function saveConversation(w: World, prompt: string, answer: string): Promise<void> {
  w.server.push({ tool_calls: [{ name: "bash", args: { command: "echo looked" } }], stop: "tool_use" }, { text: answer });
  const run = await w.run(["-p", prompt]);
  expect(run.code).toBe(0);
}

describe("resuming in the REPL", () => {
  it("zot -c shows the previous conversation's prompt, its tool calls and answer, then its id and size", async () => {
    world = await makeWorld();
    await saveConversation(world, "remember the word kiwi", "The word is kiwi.");
    const pane = await Pane.start(world, ["-c"]);
    const text = await pane.until("Resumed conversation");
    expect(text).toContain("› remember the word kiwi");
    expect(text).toMatch(/✓ bash echo looked/);
    expect(text).toContain("The word is kiwi.");
    expect(text).toMatch(/Resumed conversation \d{8}-\d{6}Z-[0-9a-f]+, last message just now, 4 messages\./);
    // The recap comes before the prompt line, which still works.
    world.server.push({ text: "still kiwi" });
    await pane.submit("and now?", "still kiwi");
  });

  it("a fresh REPL shows no recap", async () => {
    world = await makeWorld();
    const pane = await Pane.start(world, []);
    const text = await pane.until("/help for commands");
    expect(text).not.toContain("Resumed conversation");
  });

  it("/resume without an id picks from this project's conversations with their first prompt; Enter resumes, Esc cancels", async () => {
    world = await makeWorld();
    await saveConversation(world, "first topic: apples", "Apples noted.");
    await saveConversation(world, "second topic: pears", "Pears noted.");
    const pane = await Pane.start(world, []);
    await pane.until("/help for commands");
    const listed = await pane.submit("/resume", "Resume a conversation of this project");
    // Newest first, each with its age and message count.
    expect(listed).toMatch(/› second topic: pears {2}just now · 4 messages/);
    expect(listed).toMatch(/ {2}first topic: apples {2}just now · 4 messages/);
    await pane.keys("Escape");
    await pane.until((t) => !t.includes("Resume a conversation of this project"));
    expect(await pane.screen()).not.toContain("Resumed conversation");

    await pane.submit("/resume", "Resume a conversation of this project");
    await pane.keys("Down", "Enter");
    const resumed = await pane.until(/Resumed conversation \S+, last message/);
    expect(resumed).toContain("Apples noted.");
    expect(resumed).not.toContain("Pears noted.");
    // The next prompt continues that conversation: the model gets its history.
    world.server.push({ text: "continuing with apples" });
    await pane.submit("go on", "continuing with apples");
    expect(JSON.stringify(world.server.requests.at(-1)!.body.messages)).toContain("first topic: apples");
  });

  it("/model without an id picks from the provider's models, the current one selected and deprecated ones last", async () => {
    world = await makeWorld();
    const pane = await Pane.start(world, ["--no-session"]);
    await pane.until("/help for commands");
    const listed = await pane.submit("/model", "Model for anthropic (now claude-sonnet-4-6)");
    expect(listed).toMatch(/› claude-sonnet-4-6 {2}current/);
    const rows = listed.split("\n").filter((l) => /^[ ›] claude-/.test(l));
    expect(rows.at(-1)).toMatch(/deprecated, end of life/);
    // Typing filters; Enter switches through /model ID.
    await pane.type("haiku-4-5");
    await pane.until('matching "haiku-4-5"');
    await pane.keys("Enter");
    await pane.until("Model set to anthropic/claude-haiku-4-5");
    world.server.push({ text: "answered by haiku" });
    await pane.submit("hello", "answered by haiku");
    expect(world.server.requests.at(-1)!.body.model).toBe("claude-haiku-4-5");
  });
});
