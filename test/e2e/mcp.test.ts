// MCP servers as extensions in a real json-mode run against the scripted model: the model calls a
// bridged tool of the real filesystem server, a protocol guard extension blocks another, an
// everything-server prompt runs as a slash command and its long-running tool reports progress.
// Every server process is gone when zot exits.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { processAlive } from "../../lib/process/group.ts";
import { EVERYTHING, FILESYSTEM } from "../extensions/mcp/support.ts";
import { jsonLines, makeWorld, requestText, type World } from "./support.ts";
import { hostPidIn } from "../support/host-pid.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A global MCP extension folder whose server leaves its pid in `pidFile` (sh execs it: same pid). */
function addServer(w: World, name: string, command: string, args: string[], pidFile: string): void {
  const dir = join(w.home, "extensions", name);
  mkdirSync(dir, { recursive: true });
  const line = [command, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name,
    // The pid as the host sees it (zot runs the server in a PID namespace): the shell reads its own /proc/self.
    mcp: { command: "sh", args: ["-c", `read -r pid rest < /proc/self/stat; echo "$pid@$(readlink /proc/self/ns/pid)" > '${pidFile}'; exec ${line}`] } }));
}

/** A Node protocol extension that blocks every tool_call of `tool`. */
function addGuard(w: World, tool: string): string {
  const dir = join(w.cwd, "..", "guard");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "guard.mjs"), `import { createInterface } from "node:readline";
const send = (f) => process.stdout.write(JSON.stringify(f) + "\\n");
send({ type: "hello", name: "guard", version: "1.0.0", capabilities: ["events"] });
createInterface({ input: process.stdin }).on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "hello_ack") {
    send({ type: "subscribe", intercept: ["tool_call"] });
    send({ type: "ready" });
  } else if (msg.type === "event_intercept") {
    send(msg.tool_name === ${JSON.stringify(tool)}
      ? { type: "event_intercept_response", id: msg.id, block: true, reason: "guard: listing is not allowed" }
      : { type: "event_intercept_response", id: msg.id });
  } else if (msg.type === "shutdown") process.exit(0);
});
`);
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "guard", exec: process.execPath, args: ["guard.mjs"] }));
  return dir;
}

const pidOf = (file: string) => hostPidIn(file);

describe("MCP servers in a json-mode run", () => {
  it("the model calls a bridged filesystem tool and gets its result; a guard blocks another; the server is gone after", async () => {
    world = await makeWorld([
      { tool_calls: [{ name: "files_read_text_file", args: { path: "notes.txt" } }], stop: "tool_use" },
      { tool_calls: [{ name: "files_list_directory", args: { path: "." } }], stop: "tool_use" },
      { text: "Read it." },
    ]);
    writeFileSync(join(world.cwd, "notes.txt"), "the launch code is 0000\n");
    const pidFile = join(world.home, "files.pid");
    addServer(world, "files", FILESYSTEM, [world.cwd], pidFile);
    const guard = addGuard(world, "files_list_directory");
    const r = await world.run(["--json", "-e", guard, "read my notes"]);
    expect(r.code).toBe(0);
    const events = jsonLines(r.stdout);
    const results = events.filter((e) => e.type === "tool_result");
    expect(results[0]).toMatchObject({ tool_name: "files_read_text_file", status: "completed", is_error: false,
      content: [{ type: "text", text: expect.stringContaining("the launch code is 0000") }] });
    expect(results[1]).toMatchObject({ tool_name: "files_list_directory", status: "blocked", executed: false });
    expect(requestText(world.server.requests[1]!.body)).toContain("the launch code is 0000");
    expect(requestText(world.server.requests[2]!.body)).toContain("guard: listing is not allowed");
    // The bridged tools were offered to the model under their prefixed names.
    const offered = (world.server.requests[0]!.body.tools as Array<{ name: string }>).map((t) => t.name);
    expect(offered).toEqual(expect.arrayContaining(["files_read_text_file", "files_list_directory"]));
    expect(processAlive(pidOf(pidFile))).toBe(false);
  });

  it("a prompt runs as a slash command, and a long-running tool's progress is seen as tool_progress", async () => {
    world = await makeWorld([
      { tool_calls: [{ name: "every_trigger-long-running-operation", args: { duration: 0.4, steps: 4 } }], stop: "tool_use" },
      { text: "All done." },
    ]);
    const pidFile = join(world.home, "every.pid");
    addServer(world, "every", EVERYTHING, ["stdio"], pidFile);
    const r = await world.run(["--json", "/every:args-prompt Lyon"]);
    expect(r.code).toBe(0);
    expect(requestText(world.server.requests[0]!.body)).toMatch(/Lyon/);
    const events = jsonLines(r.stdout);
    const progress = events.filter((e) => e.type === "tool_progress");
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[0]).toMatchObject({ text: expect.stringMatching(/1\/4/) });
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ status: "completed", is_error: false });
    expect(processAlive(pidOf(pidFile))).toBe(false);
  });
});
