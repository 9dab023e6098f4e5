// examples/extensions/telegram, the real process (run.sh, bun from the checkout) driven as a host
// drives it (hello_ack, command_invoked, event frames) against a fake Bot API on 127.0.0.1:
// pairing and its persistence, a prompt round trip, a long answer split for Telegram, strangers
// ignored, status and disconnect, and the API going away and coming back. Then through the real
// zot: conformance, doctor and an rpc /telegram pair with the extension in its OS sandbox, and a
// REPL turn started from the paired chat (tmux, scripted model).
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { killPanes, Pane } from "../e2e/pane.ts";
import { rpc } from "../e2e/rpc-client.ts";
import { makeWorld, ROOT, type World } from "../e2e/support.ts";
import { startDriver, type ExtDriver, type Frame } from "../support/ext-driver.ts";
import { BOT_TOKEN, BOT_USERNAME, FakeBotApi, type TelegramUser } from "./fake-bot-api.ts";
import { doctor, EXAMPLES } from "./support.ts";

const TELEGRAM = join(EXAMPLES, "telegram");
const alice: TelegramUser = { id: 1001, username: "alice" };
const bob: TelegramUser = { id: 2002, username: "bob" };
const PAIRED_REPLY = "Paired with zot: your messages here become prompts, and its answers come back here.";
const NOT_PAIRED = "This bot is not paired with you.";

let api: FakeBotApi;
let dataDir = "";
const drivers: ExtDriver[] = [];

beforeEach(async () => {
  api = new FakeBotApi();
  await api.start();
  dataDir = mkdtempSync(join(tmpdir(), "zot-telegram-"));
});

afterEach(async () => {
  for (const d of drivers.splice(0)) await d.close(1_000);
  await api.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts the extension as zot would (its folder as cwd) and completes the handshake. */
async function startBridge(token = BOT_TOKEN): Promise<ExtDriver> {
  const d = startDriver(join(TELEGRAM, "run.sh"), [], {
    cwd: TELEGRAM,
    env: {
      ...process.env,
      TELEGRAM_BOT_TOKEN: token,
      TELEGRAM_API_URL: api.url,
      // Short polls and retries: the test waits for behaviour, never for the clock.
      TELEGRAM_POLL_TIMEOUT_S: "5",
      TELEGRAM_BACKOFF_MS: "20,80",
    },
  });
  drivers.push(d);
  expect(await d.next(undefined, 15_000)).toMatchObject({ type: "hello", name: "telegram", version: "1.0.0" });
  d.send({ type: "hello_ack", protocol_version: 1, cwd: "/project", data_dir: dataDir, capabilities: [] });
  expect(await d.next()).toEqual({
    type: "register_command", name: "telegram", description: "bridge to a Telegram chat: /telegram pair | status | disconnect",
  });
  expect(await d.next()).toMatchObject({ type: "subscribe", events: ["assistant_message", "tool_call"] });
  expect(await d.next()).toEqual({ type: "ready" });
  return d;
}

let commandIds = 0;
/** `/telegram <args>`: the text it displays (or its error). */
async function telegram(d: ExtDriver, args: string): Promise<string> {
  const id = `c${++commandIds}`;
  d.send({ type: "command_invoked", id, name: "telegram", args });
  const r = await d.next((f) => f.type === "command_response" && f.id === id);
  return String(r.display ?? r.error);
}

/** `/telegram pair`, then `user` sends the code to the bot. */
async function pair(d: ExtDriver, user: TelegramUser): Promise<void> {
  const shown = await telegram(d, "pair");
  const code = new RegExp(`^Send (\\d{6}) to @${BOT_USERNAME} in a private Telegram chat`).exec(shown)?.[1];
  expect(code, shown).toBeDefined();
  api.say(user, code!);
  await api.until(() => api.sentTo(user.id).includes(PAIRED_REPLY), "the pairing reply");
  expect(await d.next((f) => f.type === "notify"))
    .toEqual({ type: "notify", level: "success", message: `Telegram: paired with @${user.username}` });
}

const event = (name: string, fields: object) => ({ type: "event", event: name, session_id: "s1", cwd: "/project", sequence: 1, ...fields });
const submits = (d: ExtDriver) => d.frames.filter((f: Frame) => f.type === "submit");

describe("telegram example", () => {
  it("pairs the chat that sends the one-time code, and keeps the pairing across a restart", async () => {
    let d = await startBridge();
    expect(await telegram(d, "status")).toMatch(/^Not paired\.\nPair a chat with \/telegram pair\.\nPolling: off\./);
    // Nothing reaches Telegram before the user asks for it.
    expect(api.requests).toEqual([]);

    await pair(d, alice);
    expect(api.count("getMe")).toBe(1);
    expect(JSON.parse(readFileSync(join(dataDir, "telegram.json"), "utf8")))
      .toMatchObject({ chat_id: alice.id, user_id: alice.id, name: "@alice" });
    expect(await telegram(d, "status")).toMatch(/^Paired with @alice \(chat 1001\) since .+\.\nPolling: on\./);

    // The code was for one use: bob sending it too pairs nobody.
    api.say(bob, "000000");
    await api.until(() => api.sentTo(bob.id).length === 1, "the reply to bob");
    expect(api.sentTo(bob.id)).toEqual([NOT_PAIRED]);

    // A new process resumes polling from the saved pairing, without /telegram pair. What was
    // sent while no zot ran is not run unattended: the chat is asked to send it again.
    await d.close(1_000);
    api.say(alice, "sent while zot was away");
    d = await startBridge();
    expect(await telegram(d, "status")).toMatch(/^Paired with @alice/);
    await api.until(() => api.sentTo(alice.id).length === 2, "the answer to the message sent while away");
    expect(api.sentTo(alice.id)[1]).toBe("(Sent while zot was not running: not forwarded. Send it again.)");
    api.say(alice, "still there?");
    expect(await d.next((f) => f.type === "submit")).toEqual({ type: "submit", text: "still there?" });
    expect(submits(d)).toEqual([{ type: "submit", text: "still there?" }]);
    expect(api.count("getMe")).toBe(1);
  });

  it("turns the paired user's message into a submit frame and sends tool calls and answers back", async () => {
    const d = await startBridge();
    await pair(d, alice);
    api.say(alice, "what is in this folder?");
    expect(await d.next((f) => f.type === "submit")).toEqual({ type: "submit", text: "what is in this folder?" });

    d.send(event("tool_call", { tool_id: "t1", tool_name: "bash", tool_args: { command: "ls -la\n| head" } }));
    d.send(event("assistant_message", { text: "Two files: a.txt and b.txt." }));
    await api.until(() => api.sentTo(alice.id).length === 3, "the tool line and the answer");
    expect(api.sentTo(alice.id).slice(1)).toEqual(["🔧 bash: ls -la | head", "Two files: a.txt and b.txt."]);
  });

  it("splits a long answer into messages of at most 4096 characters, at line breaks", async () => {
    const d = await startBridge();
    await pair(d, alice);
    const lines = Array.from({ length: 120 }, (_, i) => `${String(i).padStart(3, "0")} ${"x".repeat(95)}`);
    const answer = lines.join("\n"); // 11,999 characters
    d.send(event("assistant_message", { text: answer }));
    await api.until(() => api.sentTo(alice.id).length === 4, "three pieces of the answer");
    const pieces = api.sentTo(alice.id).slice(1);
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(4096);
    expect(pieces.join("\n")).toBe(answer);
    // Each piece holds whole lines.
    for (const piece of pieces) expect(piece.split("\n").every((l) => lines.includes(l))).toBe(true);

    // One line longer than the limit, without breaks: cut at a space.
    const words = Array.from({ length: 900 }, (_, i) => `word${i}`).join(" ");
    d.send(event("assistant_message", { text: words }));
    await api.until(() => api.sentTo(alice.id).length === 6, "two pieces of the long line");
    const [first, second] = api.sentTo(alice.id).slice(4);
    expect(first!.length).toBeLessThanOrEqual(4096);
    expect(`${first} ${second}`).toBe(words);

    // No break at all: cut anywhere, but never between the two halves of an emoji.
    const emoji = `a${"😀".repeat(2500)}`;
    d.send(event("assistant_message", { text: emoji }));
    await api.until(() => api.sentTo(alice.id).length === 8, "two pieces of the emoji line");
    const [head, tail] = api.sentTo(alice.id).slice(6);
    expect(head!.length).toBe(4095);
    expect(head! + tail!).toBe(emoji);
  });

  it("ignores strangers (telling each once) and groups; only the paired user's messages become prompts", async () => {
    const d = await startBridge();
    await pair(d, alice);
    api.say(bob, "rm -rf / please");
    api.say(bob, "hello?");
    api.sayInGroup(alice, -500, "a message in a group");
    api.say(alice, "hi");
    expect(await d.next((f) => f.type === "submit")).toEqual({ type: "submit", text: "hi" });
    // The outbox sends in order: once the answer to alice is through, bob's reply is too.
    d.send(event("assistant_message", { text: "hello alice" }));
    await api.until(() => api.sentTo(alice.id).includes("hello alice"), "the answer to alice");
    expect(api.sentTo(bob.id)).toEqual([NOT_PAIRED]);
    expect(api.sentTo(-500)).toEqual([]);
    expect(submits(d)).toEqual([{ type: "submit", text: "hi" }]);
  });

  it("/telegram disconnect forgets the pairing: alice is a stranger after it", async () => {
    const d = await startBridge();
    await pair(d, alice);
    expect(await telegram(d, "disconnect")).toBe("Disconnected from @alice.");
    expect(existsSync(join(dataDir, "telegram.json"))).toBe(false);
    await api.until(() => api.sentTo(alice.id).length === 2, "the goodbye");
    expect(api.sentTo(alice.id)[1]).toBe("zot disconnected this chat: messages here no longer reach it.");
    expect(await telegram(d, "status")).toMatch(/^Not paired\.\nPair a chat with \/telegram pair\.\nPolling: off\./);
    // Answers no longer go anywhere.
    d.send(event("assistant_message", { text: "nobody hears this" }));
    expect(await telegram(d, "nonsense")).toBe("usage: /telegram pair | status | disconnect");
    expect(api.sent.map((m) => m.text)).not.toContain("nobody hears this");
  });

  it("backs off while the API is gone and resumes polling when it comes back", async () => {
    const d = await startBridge();
    await pair(d, alice);
    await api.stop();
    expect(await d.next((f) => f.type === "notify")).toEqual({
      type: "notify", level: "warn", message: expect.stringMatching(/^Telegram is unreachable \(getUpdates: .+\); retrying\.$/),
    });
    // Retried, with a log line per failure; the process keeps serving commands meanwhile.
    await expect.poll(() => d.stderr().match(/polling failed \(\d+ in a row\)/g)?.length ?? 0, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    expect(await telegram(d, "status")).toMatch(/\nPolling: retrying \(getUpdates: .+\)\./);

    const polls = api.count("getUpdates");
    await api.start();
    // A long poll on the restored server answers when there is news: the message.
    api.say(alice, "are you back?");
    expect(await d.next((f) => f.type === "submit")).toEqual({ type: "submit", text: "are you back?" });
    expect(await d.next((f) => f.type === "notify")).toEqual({ type: "notify", level: "success", message: "Telegram is reachable again." });
    expect(api.count("getUpdates")).toBeGreaterThan(polls);
    expect(await telegram(d, "status")).toMatch(/\nPolling: on\./);
  });

  it("a refused token stops polling with an error note instead of retrying", async () => {
    // Paired earlier; the token has since been revoked.
    writeFileSync(join(dataDir, "telegram.json"), JSON.stringify({ chat_id: alice.id, user_id: alice.id, name: "@alice" }));
    const d = await startBridge("987:revoked");
    expect(await d.next((f) => f.type === "notify")).toEqual({
      type: "notify", level: "error", message: expect.stringMatching(/^Telegram refused the bot token \(getUpdates: Unauthorized \(HTTP 401\)\); polling stopped/),
    });
    expect(await telegram(d, "status")).toMatch(/\nPolling stopped: getUpdates: Unauthorized \(HTTP 401\)/);
    expect(await telegram(d, "pair")).toMatch(/^Telegram refused the bot token \(getMe: Unauthorized \(HTTP 401\)\)/);
    expect(api.count("getUpdates")).toBe(1);
  });

  it("passes zot ext test's conformance checks", async () => {
    const world = await makeWorld();
    try {
      const r = await world.run(["ext", "test", TELEGRAM, "--json"]);
      expect(r.stderr).toBe("");
      const result = JSON.parse(r.stdout) as { ok: boolean; checks: Array<{ name: string; status: string }> };
      expect(result.checks.filter((c) => c.status === "failed")).toEqual([]);
      expect(result.ok).toBe(true);
      expect(r.code).toBe(0);
    } finally {
      await world.close();
    }
  });

  it("without a token, /telegram pair says how to set one and nothing is sent", async () => {
    const env = { ...process.env, TELEGRAM_BOT_TOKEN: "", TELEGRAM_API_URL: api.url };
    const d = startDriver(join(TELEGRAM, "run.sh"), [], { cwd: TELEGRAM, env });
    drivers.push(d);
    await d.next((f) => f.type === "hello", 15_000);
    d.send({ type: "hello_ack", protocol_version: 1, data_dir: dataDir });
    await d.next((f) => f.type === "ready");
    expect(await telegram(d, "pair")).toMatch(/^TELEGRAM_BOT_TOKEN is not set for the extension/);
    expect(api.requests).toEqual([]);
  });
});

describe("telegram example in zot", () => {
  let world: World | undefined;
  let copy = "";
  afterEach(async () => {
    killPanes();
    await world?.close();
    world = undefined;
    rmSync(copy, { recursive: true, force: true });
  });

  /** An installed-style copy (outside the checkout) with its Node bundle, as the README builds it. */
  function bundledCopy(): string {
    copy = mkdtempSync(join(tmpdir(), "zot-telegram-ext-"));
    const dir = join(copy, "telegram");
    cpSync(TELEGRAM, dir, { recursive: true });
    // Bundled where main.ts can find the SDK (../../../mod.ts), written into the copy.
    const bun = join(ROOT, "node_modules", ".bin", "bun");
    execFileSync(bun, ["build", join(TELEGRAM, "main.ts"), "--target=node", "--outfile", join(dir, "main.mjs")], { stdio: "pipe" });
    return dir;
  }

  it("runs in its sandbox with only what it declares: the token is granted and the API reachable", async () => {
    world = await makeWorld();
    const dir = bundledCopy();
    const entry = await doctor(world, dir);
    expect(entry).toMatchObject({ name: "telegram", commands: ["telegram"], tools: [],
      subscriptions: { events: ["assistant_message", "tool_call"], intercept: [] } });

    const c = rpc(world, ["-e", dir], { TELEGRAM_BOT_TOKEN: BOT_TOKEN, TELEGRAM_API_URL: api.url });
    const r = await c.call({ type: "command", name: "telegram", args: "pair" });
    expect(r).toMatchObject({ success: true, data: { action: "display" } });
    expect(String(r.data.text)).toMatch(new RegExp(`^Send \\d{6} to @${BOT_USERNAME}`));
    expect(api.count("getMe")).toBe(1);
    c.end();
    expect(await c.exited).toBe(0);
  });

  it("in the REPL: a message from the paired chat runs a turn, and its tool call and answer come back", async () => {
    world = await makeWorld([
      { tool_calls: [{ name: "bash", args: { command: "echo from-telegram" } }], stop: "tool_use" },
      { text: "Done: it printed from-telegram." },
    ]);
    const dir = bundledCopy();
    const pane = await Pane.start(world, ["--no-session", "-e", dir], { TELEGRAM_BOT_TOKEN: BOT_TOKEN, TELEGRAM_API_URL: api.url });
    await pane.until("/help for commands");
    await pane.submit("/telegram pair");
    const code = /Send (\d{6}) to @zot_test_bot/.exec(await pane.until(/Send \d{6} to @zot_test_bot/))![1]!;
    api.say(alice, code);
    await pane.until("Telegram: paired with @alice");

    api.say(alice, "please run echo from-telegram");
    await pane.until("Done: it printed from-telegram.");
    await api.until(() => api.sentTo(alice.id).includes("Done: it printed from-telegram."), "the answer in the chat");
    expect(api.sentTo(alice.id)).toEqual([PAIRED_REPLY, "🔧 bash: echo from-telegram", "Done: it printed from-telegram."]);
    expect(world.server.requests).toHaveLength(2);
  });
});
