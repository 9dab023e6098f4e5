// examples/extensions/guard (POSIX sh + awk): through the real host, and frame by frame on its
// own stdio for the patterns and the JSON corner cases. Commands that must be refused are
// built so that running them by mistake harms nothing (GNU rm refuses `rm -rf /` itself).
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "../e2e/support.ts";
import { doctor, EXAMPLES } from "./support.ts";

const GUARD = join(EXAMPLES, "guard");

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The tool result text the model got for the call with `id`, from a recorded request body. */
function toolResult(body: any, id: string): string {
  for (const message of body.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (block.type === "tool_result" && block.tool_use_id === id) {
        if (typeof block.content === "string") return block.content;
        return block.content.map((c: { text?: string }) => c.text ?? "").join("\n");
      }
    }
  }
  throw new Error(`no tool_result for ${id} in ${JSON.stringify(body.messages)}`);
}

/** Runs guard.sh itself: hello_ack, then `frames`, then shutdown; returns every frame it wrote. */
async function converse(frames: Array<Record<string, unknown> | string>): Promise<Array<Record<string, any>>> {
  const child = spawn(join(GUARD, "guard.sh"), [], { stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  child.stdout.on("data", (d) => (stdout += d));
  const lines = [{ type: "hello_ack", protocol_version: 1 }, ...frames, { type: "shutdown" }];
  child.stdin.end(lines.map((f) => (typeof f === "string" ? f : JSON.stringify(f))).join("\n") + "\n");
  const code = await new Promise<number | null>((done) => child.on("close", done));
  expect(code).toBe(0);
  return stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

const bash = (id: string, command: string) =>
  ({ type: "event_intercept", id, event: "tool_call", tool_id: `t-${id}`, tool_name: "bash", tool_args: { command } });

describe("guard example", () => {
  it("zot ext doctor reports it ready with /guard and a tool_call interceptor", async () => {
    world = await makeWorld();
    const entry = await doctor(world, GUARD);
    expect(entry).toMatchObject({ name: "guard", commands: ["guard"], tools: [], subscriptions: { events: [], intercept: ["tool_call"] } });
  });

  it("blocks rm -rf / (the model is told why, nothing runs) and lets ls through", async () => {
    world = await makeWorld([
      {
        tool_calls: [
          { id: "danger", name: "bash", args: { command: 'echo "a \\"quoted\\" /"; touch ran.txt; rm -rf /' } },
          { id: "safe", name: "bash", args: { command: "ls" } },
        ],
        stop: "tool_use",
      },
      { text: "understood" },
    ]);
    writeFileSync(join(world.cwd, "visible-to-ls.txt"), "");
    const r = await world.run(["-p", "-e", GUARD, "clean up everything"]);
    expect(r.stdout).toBe("understood\n");
    expect(r.code).toBe(0);
    const next = world.server.requests[1]!.body;
    expect(toolResult(next, "danger")).toContain('refused by the guard extension: the command matches the danger pattern "rm -rf /"');
    expect(existsSync(join(world.cwd, "ran.txt"))).toBe(false);
    expect(toolResult(next, "safe")).toContain("visible-to-ls.txt");
    expect(toolResult(next, "safe")).not.toContain("refused");
    expect(readFileSync(join(world.home, "logs", "ext-guard.log"), "utf8")).toContain("blocked: echo");
  });

  it("/guard displays the active patterns", async () => {
    world = await makeWorld();
    const r = await world.run(["-p", "-e", GUARD, "/guard"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^guard refuses bash commands matching:\n/);
    for (const pattern of ["rm -rf /", "rm -rf ~", "mkfs", "dd of=/dev/", ":(){ :|:& };:"]) expect(r.stdout).toContain(`  ${pattern} `);
    expect(world.server.requests).toHaveLength(0);
  });

  it("on its own stdio: every danger pattern, escaped quotes and unicode escapes, other tools and events", async () => {
    const blocked = {
      root: "rm -rf /",
      rootGlob: "sudo rm -fr /*",
      home: "rm -rf ~",
      homeVar: 'rm -r -f "$HOME"',
      mkfs: "mkfs.ext4 /dev/sdb1",
      dd: "dd if=/dev/zero of=/dev/sda bs=1M",
      ddAfterHarmless: "dd if=a of=/dev/null; dd if=b of=/dev/nvme0n1",
      forkBomb: ":(){ :|:& };:",
      inShC: "sh -c 'rm -rf /'",
      afterEscapedQuote: 'echo "\\"done\\""; rm -rf /',
      multiline: "cd /\nrm -rf /\n",
    };
    const allowed = {
      ls: "ls",
      subfolder: "rm -rf /tmp/build",
      homeSubfolder: "rm -rf ~/projects/old",
      ddNull: "dd if=/dev/zero of=/dev/null count=1",
      quoted: 'printf "%s\\n" "rm -rf \\" not a command"',
      word: "echo mkfsx",
    };
    const frames: Array<Record<string, unknown> | string> = [
      ...Object.entries(blocked).map(([id, command]) => bash(id, command)),
      ...Object.entries(allowed).map(([id, command]) => bash(id, command)),
      // The same danger spelt with \u escapes, and an escaped quote in the id itself.
      '{"type":"event_intercept","id":"uni\\"code","event":"tool_call","tool_name":"bash","tool_args":{"command":"rm \\u002drf \\u002f"}}',
      // Not bash, or not about a tool call: always allowed.
      { type: "event_intercept", id: "read", event: "tool_call", tool_name: "read", tool_args: { command: "rm -rf /", path: "/" } },
      { type: "event_intercept", id: "turn", event: "turn_start", step: 1 },
      // A bash call without a string command, and a frame that is not JSON: no crash.
      { type: "event_intercept", id: "nocommand", event: "tool_call", tool_name: "bash", tool_args: { command: ["rm -rf /"] } },
      "this is not json",
      { type: "command_invoked", id: "cmd", name: "guard", args: "" },
    ];
    const out = await converse(frames);
    expect(out.slice(0, 4)).toEqual([
      { type: "hello", name: "guard", version: "1.0.0", capabilities: ["commands", "events"] },
      { type: "register_command", name: "guard", description: expect.any(String) },
      { type: "subscribe", intercept: ["tool_call"] },
      { type: "ready" },
    ]);
    expect(out.at(-1)).toEqual({ type: "shutdown_ack" });
    const answers = new Map(out.filter((f) => f.type === "event_intercept_response").map((f) => [f.id, f]));
    for (const id of [...Object.keys(blocked), 'uni"code']) {
      expect(answers.get(id), id).toMatchObject({ block: true, reason: expect.stringContaining("danger pattern") });
    }
    expect(answers.get("forkBomb")!.reason).toContain('":(){ :|:& };:"');
    expect(answers.get("dd")!.reason).toContain('"dd of=/dev/"');
    for (const id of [...Object.keys(allowed), "read", "turn", "nocommand"]) expect(answers.get(id), id).toEqual({ type: "event_intercept_response", id });
    expect(out.find((f) => f.type === "command_response")).toMatchObject({ id: "cmd", action: "display", display: expect.stringContaining("fork bomb") });
  });
});
