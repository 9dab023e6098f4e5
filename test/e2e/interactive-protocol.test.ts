// Rules of the extension protocol as a user meets them in the REPL: the real bundle in a real
// pseudo-terminal (tmux), against the scripted model server, with a real extension process that
// records every frame it receives (test/fixtures/e2e/recorder).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Turn } from "../support/model-server.ts";
import { killPanes, Pane } from "./pane.ts";
import { pollFor, recordedFrames, savedTranscripts } from "./records.ts";
import { ROOT, makeWorld, type World } from "./support.ts";

const RECORDER = join(ROOT, "test", "fixtures", "e2e", "recorder");

let world: World | undefined;
afterEach(async () => {
  killPanes();
  await world?.close();
  world = undefined;
});

/** A REPL with the recorder loaded; `frames()` are what the recorder received so far. */
async function recordedRepl(script: Turn[], args: string[] = ["--no-session"], env: Record<string, string> = {}) {
  world = await makeWorld(script);
  const record = join(world.cwd, "..", "recorder.jsonl");
  const pane = await Pane.start(world, ["-e", RECORDER, ...args], { ZOT_TEST_RECORD: record, ...env });
  const frames = () => recordedFrames(record);
  const events = (name: string) => frames().filter((f) => f.type === "event" && f.event === name);
  return { pane, frames, events };
}

describe("the extension protocol in the REPL", () => {
  it("every normalized panel key name reaches the extension from a real terminal; esc closes the panel with panel_close", async () => {
    const { pane, frames } = await recordedRepl([]);
    await pane.until("/help for commands");
    await pane.submit("/keys", "last key: none");
    // tmux sends each key's real escape sequence (ESC [ A, ESC [ 5 ~, DEL, …) to the terminal.
    const sent: Array<[string, string]> = [
      ["Up", "up"], ["Down", "down"], ["Left", "left"], ["Right", "right"], ["Enter", "enter"], ["Tab", "tab"],
      ["PageUp", "pageup"], ["PageDown", "pagedown"], ["Home", "home"], ["End", "end"], ["BSpace", "backspace"], ["DC", "delete"],
    ];
    await pane.keys(...sent.map(([key]) => key));
    await pane.type("é");
    await pane.until("last key: rune é");
    await pollFor(() => frames().filter((f) => f.type === "panel_key").length === sent.length + 1, "every panel_key");
    expect(frames().filter((f) => f.type === "panel_key").map((f) => [f.panel_id, f.key, f.text])).toEqual([
      ...sent.map(([, name]) => ["keys", name, undefined]), ["keys", "rune", "é"],
    ]);

    // Esc is the user closing the panel: the extension is told so with panel_close (as in the Go zot).
    await pane.keys("Escape");
    await pollFor(() => frames().some((f) => f.type === "panel_close" && f.panel_id === "keys"), "panel_close");
    await pane.until((t) => !t.includes("Key recorder"), 10_000, () => pane.screen());
    expect(frames().filter((f) => f.type === "panel_key")).toHaveLength(sent.length + 1);
  });

  it("notes clear on Esc and on /clear", async () => {
    const { pane } = await recordedRepl([]);
    await pane.until("/help for commands");
    await pane.submit("/note first", "[recorder] warn: note: first", 10_000, () => pane.screen());
    await pane.keys("Escape");
    await pane.until((t) => !t.includes("note: first"), 10_000, () => pane.screen());

    await pane.submit("/note second", "[recorder] warn: note: second", 10_000, () => pane.screen());
    await pane.submit("/clear", (t) => t.includes("Conversation cleared.") && !t.includes("note: second"), 10_000, () => pane.screen());
  });

  it("an interactive session emits session_start when initialized, before any input; non-submitting slash commands emit no user_prompt_submit", async () => {
    const { pane, frames, events } = await recordedRepl([{ text: "the one real answer" }]);
    await pane.until("/help for commands");
    await pollFor(() => events("session_start").length === 1, "session_start before any input");
    expect(frames().filter((f) => f.type === "command_invoked")).toEqual([]);

    for (const line of ["/help", "/tools", "/ext", "/note quiet"]) {
      await pane.submit(line);
    }
    await pane.until("note: quiet", 10_000, () => pane.screen());
    await pane.submit("a real prompt", "the one real answer");
    await pollFor(() => events("user_prompt_submit").length > 0, "user_prompt_submit");
    expect(events("user_prompt_submit").map((e) => e.text)).toEqual(["a real prompt"]);
    expect(world!.server.requests).toHaveLength(1);
  });

  it("/clear and model switches emit no session_end; only the exit ends the session", async () => {
    const { pane, events } = await recordedRepl([]);
    await pane.until("/help for commands");
    await pollFor(() => events("session_start").length === 1, "session_start");
    await pane.submit("/clear", "Conversation cleared.");
    await pane.submit("/model claude-opus-4-7", "Model set to anthropic/claude-opus-4-7");
    await pane.submit("/note after the switches");
    // The note is answered after every event the switches could have sent (frames are ordered).
    await pane.until("note: after the switches", 10_000, () => pane.screen());
    expect(events("session_end")).toEqual([]);
    expect(events("session_start")).toHaveLength(1);

    await pane.keys("C-d");
    expect(await pane.exitCode()).toBe(0);
    expect(events("session_end").map((e) => e.reason)).toEqual(["shutdown"]);
  });

  it("reload failures reach neither the model nor the session transcript; multi-line diagnostics keep their line breaks in the status and the chat", async () => {
    world = await makeWorld([{ text: "answered without the failure" }]);
    const broken = join(world.cwd, ".zot", "extensions", "broken");
    mkdirSync(broken, { recursive: true });
    writeFileSync(join(broken, "extension.json"), JSON.stringify({ name: "broken", exec: "sh -c 'exit 3'", language: "sh" }));
    const pane = await Pane.start(world, ["--trust-project"], { ZOT_RELOAD_STATUS_MS: "1500" });
    await pane.until("/help for commands");
    await pane.submit("/reload-ext");
    // Each line of the diagnostic is its own row, in the temporary status and in the chat.
    const folder = `  folder: ${broken}`;
    const statusAndChat = await pane.until((t) => t.includes("✗ broken: extension \"broken\" failed to start")
      && t.split("\n").filter((row) => row.includes(folder)).length === 2, 10_000, () => pane.screen());
    for (const row of ["  exec: sh -c 'exit 3'", "  language: sh"]) {
      expect(statusAndChat.split("\n").filter((r) => r.includes(row)), statusAndChat).toHaveLength(2);
    }
    const chat = await pane.until((t) => !t.includes("✗ broken:") && t.includes("[broken] error:"), 10_000, () => pane.screen());
    expect(chat.split("\n").filter((row) => row.includes(folder))).toHaveLength(1);

    await pane.submit("hello there", "answered without the failure");
    await pane.keys("C-d");
    expect(await pane.exitCode()).toBe(0);
    expect(world.server.requests).toHaveLength(1);
    const sent = JSON.stringify(world.server.requests.map((r) => r.body));
    expect(sent).toContain("hello there");
    for (const text of ["failed to start", "exit 3", broken]) expect(sent).not.toContain(text);
    const transcript = savedTranscripts(world.home);
    expect(transcript).toContain("hello there");
    for (const text of ["failed to start", "exit 3", broken]) expect(transcript).not.toContain(text);
  });
});
