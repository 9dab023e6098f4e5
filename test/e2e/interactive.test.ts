// The interactive REPL end to end: the real bundle in a real pseudo-terminal (tmux), against
// the scripted model server, with real extension processes. Every wait polls the pane with a
// deadline.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Turn } from "../support/model-server.ts";
import { EXITED, hasTmux, killPanes, Pane } from "./pane.ts";
import { REPAIR_NOTES, ROOT, makeWorld, requestText, writeDamagedSession, type World } from "./support.ts";

const PANEL = join(ROOT, "test", "fixtures", "e2e", "panel");

let world: World | undefined;
afterEach(async () => {
  killPanes();
  await world?.close();
  world = undefined;
});

async function repl(script: Turn[], args: string[] = [], env: Record<string, string> = {}): Promise<Pane> {
  world = await makeWorld(script);
  const pane = await Pane.start(world, ["--no-session", ...args], env);
  await pane.until("/help for commands");
  return pane;
}

// CI installs tmux (.ci/run); a machine without it fails here and in every pane test, never skips.
it("tmux is installed for the terminal tests", () => {
  expect(hasTmux, "install tmux: apt-get install tmux").toBe(true);
});

describe("interactive REPL in a terminal", () => {
  it("streams the answer, shows a compact tool line, and Ctrl+D exits 0", async () => {
    const pane = await repl([
      { tool_calls: [{ name: "bash", args: { command: "echo from-bash" } }], stop: "tool_use" },
      { text: ["Streaming ", "words ", "arrive ", "one ", "by ", "one."], chunk_delay_ms: 120 },
    ]);
    await pane.submit("run it", "› run it");
    await pane.until(/✓ bash echo from-bash → completed/);
    // Mid-stream: the first words are on screen before the last one arrived.
    await pane.until((t) => t.includes("Streaming") && !t.includes("one."));
    // The status line goes once the run is done.
    await pane.until((t) => t.includes("Streaming words arrive one by one.") && !t.includes("working…"));
    expect(requestText(world!.server.requests[1]!.body)).toContain("from-bash");
    await pane.keys("C-d");
    expect(await pane.exitCode()).toBe(0);
  });

  it("a retried model request is a yellow retry line, not a red error, and the answer follows", async () => {
    const pane = await repl([{ type: "error", status: 529, message: "overloaded", retry_after_ms: 10 }, { text: "made it" }], [], { NO_COLOR: "" });
    await pane.submit("hi", "made it");
    const styled = await pane.text(true);
    expect(styled).toMatch(/\x1b\[33m↻ model request failed \(HTTP 529[^\n]*overloaded[^\n]*\); retry 1 in 0\.0 s/);
    expect(await pane.text()).not.toContain("zot: model request failed");
  });

  it("a damaged session is repaired with a note saying what was skipped and patched", async () => {
    world = await makeWorld();
    const { path } = writeDamagedSession(world);
    const pane = await Pane.start(world, ["--session", path]);
    const text = (await pane.until("marked interrupted")).replace(/\n/g, " ");
    for (const note of REPAIR_NOTES) expect(text).toMatch(new RegExp(`zot: ${note.source.replaceAll("\\S+", "[^ ]+")}`));
    // The notes come while it loads; keys count once the REPL is up and has shown the conversation.
    await pane.until("Resumed conversation damaged");
    await pane.keys("C-d");
    expect(await pane.exitCode()).toBe(0);
  });

  it("a line starting with / that names no command is sent to the model", async () => {
    const pane = await repl([{ text: "Install a shell first." }]);
    await pane.submit("/bin/sh is missing, why?", "Install a shell first.");
    expect(requestText(world!.server.requests[0]!.body)).toContain("/bin/sh is missing, why?");
  });

  it("/help lists extension commands under their own heading; Tab completes commands", async () => {
    const pane = await repl([], ["-e", PANEL]);
    await pane.type("/he");
    await pane.keys("Tab");
    await pane.until("› /help ");
    await pane.keys("Enter");
    const help = await pane.until("Extension commands:");
    const [builtins, extension] = help.split("Extension commands:");
    expect(builtins).toMatch(/\/compact\s/);
    expect(builtins).not.toMatch(/\/pick\s/);
    expect(extension).toMatch(/\/pick\s+open the fruit picker panel \[panel\]/);

    await pane.type("/c");
    await pane.keys("Tab");
    await pane.until(/commands: \/clear\s+\/cd\s+\/compact/);
    await pane.keys("C-u");
    await pane.type("/pi");
    await pane.keys("Tab");
    await pane.until("› /pick ");
  });

  it("Ctrl+C cancels a slow turn; the REPL goes on; Ctrl+C twice at an empty prompt exits", async () => {
    const slow = "This answer is far too slow to wait for the end of it".split(" ").map((w) => `${w} `);
    const pane = await repl([{ text: slow, chunk_delay_ms: 150 }, { text: slow, chunk_delay_ms: 150 }, { text: "Second answer." }]);
    await pane.submit("go slow", "This answer");
    await pane.keys("C-c");
    const cancelled = await pane.until("⊘ cancelled");
    expect(cancelled).not.toContain("end of it");
    expect(await world!.server.requests[0]!.outcome).toBe("client_closed");

    await pane.submit("slow again", "› slow again");
    await pane.keys("Escape");
    await pane.until((t) => t.match(/⊘ cancelled/g)?.length === 2);
    expect(await world!.server.requests[1]!.outcome).toBe("client_closed");

    await pane.submit("again", "Second answer.");
    await pane.keys("C-c");
    await pane.until("Press Ctrl+C again to exit");
    await pane.keys("C-c");
    expect(await pane.exitCode()).toBe(0);
  });

  it("a panel renders as a framed block, keys reach the extension, Esc closes it", async () => {
    const pane = await repl([], ["-e", PANEL]);
    await pane.submit("/pick", (t) => t.includes("Fruit picker") && t.includes("> apple") && t.includes("┌"));
    await pane.keys("Down", "Down");
    let text = await pane.until("> cherry");
    expect(text).toContain("selected cherry");
    expect(text).not.toContain("> apple");
    await pane.keys("Up");
    await pane.until("selected banana");
    await pane.type("x");
    await pane.until("[panel] typed x");
    await pane.keys("PageDown");
    await pane.until("[panel] key pagedown");
    // Only one panel frame on screen: redraws happen in place.
    expect((await pane.text()).match(/Fruit picker/g)).toHaveLength(1);

    await pane.keys("Escape");
    text = await pane.until("[panel] panel fruit closed");
    expect(text).not.toContain("Fruit picker");
    await pane.type("back to typing");
    await pane.until("› back to typing");

    // Ctrl+C closes a focused panel too (and leaves zot running).
    await pane.keys("C-u");
    await pane.submit("/pick");
    // Submitting /pick cleared the earlier notes, so "closed" below is the new close.
    await pane.until((t) => t.includes("Fruit picker") && !t.includes("closed"));
    await pane.keys("C-c");
    await pane.until((t) => !t.includes("Fruit picker") && t.includes("panel fruit closed"));
    expect(await pane.text()).not.toMatch(EXITED);
  });

  it("startup failures stay in the chat across prompts and Esc, name the log path once, and go on /clear", async () => {
    world = await makeWorld([{ text: "first answer" }]);
    const broken = join(world.cwd, ".zot", "extensions", "broken");
    mkdirSync(broken, { recursive: true });
    writeFileSync(join(broken, "extension.json"), JSON.stringify({ name: "broken", exec: "sh -c 'exit 3'" }));
    // A project extension starts only in a trusted project; --trust-project trusts it for this run.
    const pane = await Pane.start(world, ["--no-session", "--trust-project"]);
    await pane.until("/help for commands");
    await pane.until('extension "broken" failed to start');
    const screen = await pane.screen();
    expect(screen.match(/ext-broken\.log/g), screen).toHaveLength(1);
    await pane.submit("hello", "first answer");
    await pane.keys("Escape");
    await pane.submit("/help", "Commands:");
    expect(await pane.screen()).toContain('extension "broken" failed to start');
    expect(JSON.stringify(world.server.requests[0]!.body)).not.toContain("failed to start");
    await pane.keys("C-u");
    await pane.submit("/clear", (t) => t.includes("Conversation cleared.") && !t.includes('extension "broken" failed to start'), 10_000, () => pane.screen());
  });

  it("/reload-ext shows a temporary status with each load error in red that dismisses itself; a successful reload clears the load errors", async () => {
    world = await makeWorld([]);
    const broken = join(world.cwd, ".zot", "extensions", "broken");
    mkdirSync(broken, { recursive: true });
    writeFileSync(join(broken, "extension.json"), JSON.stringify({ name: "broken", exec: "sh -c 'exit 3'" }));
    // A project extension starts only in a trusted project; --trust-project trusts it for this run.
    const pane = await Pane.start(world, ["--no-session", "--trust-project"], { ZOT_RELOAD_STATUS_MS: "800", NO_COLOR: "" });
    await pane.until("/help for commands");
    await pane.submit("/reload-ext");
    const status = /✗ broken: extension "broken" failed to start/;
    await pane.until(status, 10_000, () => pane.screen());
    const styled = await pane.text(true);
    expect(styled).toMatch(/\x1b\[31m✗ broken: extension "broken" failed to start/);
    await pane.until((t) => !status.test(t) && t.includes("[broken] error:"), 10_000, () => pane.screen());

    // Fixed on disk: the next reload succeeds and the load errors leave the chat.
    writeFileSync(join(broken, "extension.json"), JSON.stringify({ name: "broken", exec: "sh -c 'exit 3'", enabled: false }));
    await pane.submit("/reload-ext", (t) => t.includes("✓ extensions reloaded") && !t.includes("[broken] error:"), 10_000, () => pane.screen());
  });

  it("notes are coloured by level and cleared by the next prompt; NO_COLOR turns colour off", async () => {
    const pane = await repl([{ text: "Fine." }], ["-e", PANEL], { NO_COLOR: "" });
    await pane.submit("/note loud", "careful: loud");
    expect(await pane.text(true)).toContain("\x1b[33m[panel] warn: careful: loud");
    const text = await pane.submit("next prompt", "Fine.");
    expect(text).not.toContain("careful: loud");

    const plain = await Pane.start(world!, ["--no-session", "-e", PANEL]);
    await plain.until("/help for commands");
    await plain.submit("/note quiet", "careful: quiet");
    expect(await plain.text(true)).not.toContain("\x1b[33m");
  });

  it("notes, clear_notes, insert, and submit frames queued behind a running turn", async () => {
    const pane = await repl([
      { text: "slow first answer arrives here".split(" ").map((w) => `${w} `), chunk_delay_ms: 120 },
      (req) => ({ text: requestText(req.body).includes("queued by hand") ? "Handled the typed one." : "wrong" }),
      (req) => ({ text: requestText(req.body).includes("from the extension") ? "Handled the submitted one." : "wrong" }),
    ], ["-e", PANEL]);
    await pane.submit("/note hi", "[panel] warn: careful: hi");
    await pane.submit("/quiet", (t) => !t.includes("careful: hi"));
    await pane.submit("/fill", "› inserted words");
    await pane.keys("C-u");

    await pane.submit("first", "slow");
    await pane.submit("queued by hand", "queued: queued by hand");
    await pane.submit("/later from the extension", "queued: from the extension");
    const text = await pane.until("Handled the submitted one.");
    const order = ["slow first answer arrives here", "› queued by hand", "Handled the typed one.", "› from the extension", "Handled the submitted one."]
      .map((s) => text.indexOf(s));
    expect(order.every((i) => i >= 0), text).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it("--no-yolo asks before each tool call: y runs it, n declines it", async () => {
    const pane = await repl([
      { tool_calls: [{ name: "bash", args: { command: "echo approved-run" } }], stop: "tool_use" },
      { tool_calls: [{ name: "bash", args: { command: "echo declined-run" } }], stop: "tool_use" },
      (req) => ({ text: requestText(req.body).includes("declined") ? "Noted the refusal." : "no refusal seen" }),
    ], ["--no-yolo"]);
    await pane.submit("do things", "Allow bash: echo approved-run");
    await pane.type("y");
    await pane.until("✓ bash echo approved-run → completed");
    await pane.until("Allow bash: echo declined-run");
    await pane.type("n");
    const text = await pane.until("Noted the refusal.");
    expect(text).toMatch(/bash echo declined-run → (blocked|failed)/);
    expect(text).not.toContain("declined-run\n");
  });

  it("after each run a dim line shows its tokens and cost, with the session's cost so far", async () => {
    const pane = await repl([
      { text: "First counted.", usage: { input: 1234, output: 340, cache_read: 8100 } },
      { text: "Second counted.", usage: { input: 500, output: 20, cache_read: 0 } },
    ]);
    await pane.submit("count one");
    // claude-sonnet-4-6 at $3 in / $15 out / $0.30 cache read per million tokens:
    // 1234×3 + 340×15 + 8100×0.3 = 11232 µ$.
    let text = await pane.until("↳ 1.2k in · 340 out · 8.1k cached · $0.0112 (session $0.0112)");
    expect(text.indexOf("First counted.")).toBeLessThan(text.indexOf("↳ 1.2k in"));
    await pane.submit("count two");
    // 500×3 + 20×15 = 1800 µ$; no cache reads, so that part is left out.
    text = await pane.until("↳ 500 in · 20 out · $0.0018 (session $0.0130)");
    expect(text.match(/↳ /g)).toHaveLength(2);
  });

  it("reasoning streams dimmed above the answer, then collapses to one summary line", async () => {
    const pane = await repl([{
      thinking: ["Weighing the first idea\n", "and then a second idea"],
      text: ["The answer ", "is here."],
      chunk_delay_ms: 150,
    }], [], { NO_COLOR: "" });
    await pane.submit("think first", (t) => t.includes("Weighing the first idea") && t.includes("and then a second idea") && !t.includes("The answer"));
    // Dimmed and italic while colour is on (tmux may merge the two SGR codes into one).
    const sgr = /\x1b\[([0-9;]*)m(?=Weighing the first idea)/.exec(await pane.text(true));
    expect(sgr?.[1]?.split(";")).toEqual(expect.arrayContaining(["2", "3"]));
    const text = await pane.until((t) => t.includes("The answer is here.") && !t.includes("working…"));
    expect(text).toContain("thought for 2 lines");
    expect(text).not.toContain("Weighing the first idea");
    expect(text.indexOf("thought for 2 lines")).toBeLessThan(text.indexOf("The answer is here."));
  });

  it("a bracketed paste of two lines is one prompt; Enter submits it; Alt+Enter adds a line", async () => {
    const pane = await repl([{ text: "Got the paste." }, { text: "Got the typed block." }]);
    await pane.type("\x1b[200~first pasted line\nsecond pasted line\x1b[201~");
    let text = await pane.until("  second pasted line");
    expect(text).toContain("› first pasted line");
    expect(world!.server.requests).toHaveLength(0);
    await pane.keys("Enter");
    await pane.until("Got the paste.");
    const userMessages = (body: any) => (body.messages as Array<{ role: string; content: unknown }>).filter((m) => m.role === "user");
    let users = userMessages(world!.server.requests[0]!.body);
    expect(users).toHaveLength(1);
    expect(JSON.stringify(users[0]!.content)).toContain("first pasted line\\nsecond pasted line");

    await pane.type("typed top");
    await pane.keys("M-Enter");
    await pane.type("typed bottom");
    text = await pane.until("  typed bottom");
    expect(text).toContain("› typed top");
    await pane.keys("Enter");
    await pane.until("Got the typed block.");
    users = userMessages(world!.server.requests[1]!.body);
    expect(JSON.stringify(users.at(-1)!.content)).toContain("typed top\\ntyped bottom");
  });

  it("a prompt given on the command line is pre-submitted", async () => {
    world = await makeWorld([{ text: "Pre-submitted answer." }]);
    const pane = await Pane.start(world, ["--no-session", "hello from argv"]);
    await pane.until("› hello from argv");
    await pane.until("Pre-submitted answer.");
    expect(requestText(world.server.requests[0]!.body)).toContain("hello from argv");
  });
});

describe("interactive mode without a terminal", () => {
  it("runs the given prompt as print mode does", async () => {
    world = await makeWorld([{ text: "plain answer" }]);
    const r = await world.run(["--no-session", "hi"]);
    expect(r.stdout).toBe("plain answer\n");
    expect(r.code).toBe(0);
  });
});
