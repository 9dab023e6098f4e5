// Escape 9: nothing an extension starts outlives zot. The extension starts four daemons as it
// says hello: two that call setsid and two that double-fork and call setsid, each once with
// zot's environment and once with a cleared one (so no marker can find them, and the early
// double-forked one is no longer in the extension's process tree when zot stops it). They must
// all be gone after a normal exit, after SIGTERM of rpc mode (which also shuts the extension
// down: it sees session_end), and after zot is killed with SIGKILL. Daemons are found on the
// host by a tag in their command line.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { processesWithTag } from "../extensions/helpers.ts";
import { makeWorld, type World } from "./support.ts";

let world: World | undefined;
const tags: string[] = [];
afterEach(async () => {
  for (const tag of tags.splice(0)) for (const pid of processesWithTag(tag)) process.kill(pid, "SIGKILL");
  await world?.close();
  world = undefined;
});

const until = async (what: string, test: () => boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** The daemonizing extension as a global one; returns its tag and where it records frames. */
function daemonizer(w: World): { tag: string; record: string } {
  const tag = `zot-escape-${process.pid}-${Date.now()}-${tags.length}`;
  tags.push(tag);
  const record = join(w.home, "..", "daemonizer.jsonl");
  const dir = join(w.home, "extensions", "daemonizer");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "daemonizer", exec: process.execPath, args: ["./main.mjs"] }));
  writeFileSync(join(dir, "main.mjs"), `
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";
const daemon = ["-e", "setInterval(() => {}, 1000)", ${JSON.stringify(tag)}];
const quoted = [process.execPath, ...daemon].map((a) => "'" + a.replaceAll("'", "'\\\\''") + "'").join(" ");
for (const env of [process.env, {}]) {
  spawn(process.execPath, daemon, { detached: true, stdio: "ignore", env }).unref();
  spawn("/bin/sh", ["-c", "(setsid " + quoted + " &) &"], { stdio: "ignore", env }).unref();
}
const send = (f) => process.stdout.write(JSON.stringify(f) + "\\n");
send({ type: "hello", name: "daemonizer", version: "1.0.0", capabilities: ["events"] });
createInterface({ input: process.stdin }).on("line", (line) => {
  const msg = JSON.parse(line);
  appendFileSync(${JSON.stringify(record)}, JSON.stringify({ type: msg.type, event: msg.event }) + "\\n");
  if (msg.type === "hello_ack") { send({ type: "subscribe", events: ["session_end"] }); send({ type: "ready" }); }
  if (msg.type === "shutdown") { send({ type: "shutdown_ack" }); process.exit(0); }
});
`);
  return { tag, record };
}

const frames = (record: string) => readFileSync(record, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as { type: string; event?: string });

describe("no process an extension starts outlives zot", () => {
  it("after a normal exit", async () => {
    world = await makeWorld([{ text: "done" }]);
    const { tag } = daemonizer(world);
    const r = await world.run(["-p", "hi"]);
    expect(r.code).toBe(0);
    await until("the daemons to be gone", () => processesWithTag(tag).length === 0);
  });

  it("after SIGTERM in rpc mode, which shuts the extension down first", async () => {
    world = await makeWorld([]);
    const { tag, record } = daemonizer(world);
    const child = world.start(["--mode", "rpc"]);
    await until("four daemons", () => processesWithTag(tag).length === 4);
    const exited = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(130);
    expect(frames(record).map((f) => f.event ?? f.type)).toEqual(expect.arrayContaining(["session_end", "shutdown"]));
    await until("the daemons to be gone", () => processesWithTag(tag).length === 0);
  });

  it("after zot is killed with SIGKILL", async () => {
    world = await makeWorld([]);
    const { tag } = daemonizer(world);
    const child = world.start(["--mode", "rpc"]);
    await until("four daemons", () => processesWithTag(tag).length === 4);
    const exited = new Promise((r) => child.on("close", r));
    child.kill("SIGKILL");
    await exited;
    await until("the daemons to be gone", () => processesWithTag(tag).length === 0);
  });
});
