// When the program reading zot's stdout goes away (`zot --mode json … | head -1`): the run stops,
// zot says so in one line on stderr, exits 1 (host.md: an I/O failure), keeps the session file
// whole and leaves no extension running, instead of dying of an unhandled EPIPE.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hostPidIn } from "../support/host-pid.ts";
import { makeWorld, ZOT, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** An extension that leaves its pid in `pidFile`, answers the handshake, and notes `shutdown` in `pidFile.shutdown`. */
function pidExtension(w: World, pidFile: string): string {
  const dir = join(w.cwd, "..", "pid-ext");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "pidext", version: "1.0.0", exec: "./ext.mjs", language: "javascript" }));
  writeFileSync(join(dir, "ext.mjs"), `#!/usr/bin/env node
import { readlinkSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
writeFileSync(${JSON.stringify(pidFile)}, readlinkSync("/proc/self") + "@" + readlinkSync("/proc/self/ns/pid"));
const send = (frame) => process.stdout.write(JSON.stringify(frame) + "\\n");
send({ type: "hello", name: "pidext", version: "1.0.0" });
createInterface({ input: process.stdin }).on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "hello_ack") send({ type: "ready" });
  else if (msg.type === "shutdown") {
    writeFileSync(${JSON.stringify(pidFile)} + ".shutdown", "");
    send({ type: "shutdown_ack" });
    process.exit(0);
  }
});
`, { mode: 0o755 });
  return dir;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Starts zot, reads stdout until `until` appears, then stops reading (closes the pipe, and stderr's too with `both`). */
async function runUntilReaderLeaves(w: World, args: string[], until: string, both = false) {
  const child = w.start(args);
  child.stdin!.end();
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  let seen = "";
  child.stdout!.on("data", (d) => {
    seen += d;
    if (!seen.includes(until)) return;
    child.stdout!.destroy();
    if (both) child.stderr!.destroy();
  });
  const [code] = await once(child, "close");
  return { code, stderr, seen };
}

describe("a reader that closes zot's stdout", () => {
  it("stops a json run mid-stream: one line on stderr, exit 1, the model request abandoned, no extension left", async () => {
    world = await makeWorld([{ text: Array.from({ length: 40 }, (_, i) => `word${i}`).join(" "), chunk_delay_ms: 25 }]);
    const pidFile = join(world.cwd, "..", "ext.pid");
    const ext = pidExtension(world, pidFile);
    const r = await runUntilReaderLeaves(world, ["--mode", "json", "-e", ext, "hi"], '"text_delta"');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("zot: stdout was closed (its reader went away); the run was stopped\n");
    // The run stopped instead of reading the reply to its end.
    expect(await world.server.requests[0]!.outcome).toBe("client_closed");
    expect(existsSync(`${pidFile}.shutdown`)).toBe(true);
    expect(alive(hostPidIn(pidFile))).toBe(false);
  });

  it("still shuts down in order when stderr went with stdout (`2>&1 | head -1`): its message is dropped", async () => {
    world = await makeWorld([{ text: Array.from({ length: 40 }, (_, i) => `word${i}`).join(" "), chunk_delay_ms: 25 }]);
    const pidFile = join(world.cwd, "..", "ext.pid");
    const ext = pidExtension(world, pidFile);
    const r = await runUntilReaderLeaves(world, ["--mode", "json", "-e", ext, "hi"], '"text_delta"', true);
    expect(r.code).toBe(1);
    // The extension was told to shut down: zot went through its close, not a crash.
    expect(existsSync(`${pidFile}.shutdown`)).toBe(true);
    expect(alive(hostPidIn(pidFile))).toBe(false);
  });

  it("keeps the session file whole: every line of the interrupted session parses", async () => {
    world = await makeWorld([{ text: Array.from({ length: 40 }, (_, i) => `word${i}`).join(" "), chunk_delay_ms: 25 }]);
    const r = await runUntilReaderLeaves(world, ["--mode", "json", "hi"], '"text_delta"');
    expect(r.code).toBe(1);
    const sessions = join(world.home, "sessions");
    const files = readdirSync(sessions, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"));
    expect(files).toHaveLength(1);
    const lines = readFileSync(join(sessions, files[0]!), "utf8").trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    // The prompt was recorded before the reader left.
    expect(lines.some((l) => l.includes('"hi"'))).toBe(true);
  });

  it.runIf(process.platform === "linux")("a print run whose answer cannot be written (a full disk) says so and exits 1", async () => {
    world = await makeWorld([{ text: "the answer" }]);
    const full = openSync("/dev/full", "w");
    try {
      const child = spawn(process.execPath, [ZOT, "-p", "hi"], { cwd: world.cwd, env: world.env, stdio: ["ignore", full, "pipe"] });
      let stderr = "";
      child.stderr!.on("data", (d) => (stderr += d));
      const [code] = await once(child, "close");
      expect({ code, stderr }).toEqual({ code: 1, stderr: "zot: cannot write to stdout (ENOSPC: no space left on device, write)\n" });
    } finally {
      closeSync(full);
    }
  });

  it("ends rpc mode as at EOF when its client stops reading, aborting the prompt in flight", async () => {
    world = await makeWorld([{ text: Array.from({ length: 40 }, (_, i) => `word${i}`).join(" "), chunk_delay_ms: 25 }]);
    const child = world.start(["--mode", "rpc"]);
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    let seen = "";
    child.stdout!.on("data", (d) => {
      seen += d;
      if (seen.includes('"text_delta"')) child.stdout!.destroy();
    });
    // stdin stays open: the closed stdout alone must end the mode.
    child.stdin!.write(`${JSON.stringify({ id: 1, type: "prompt", message: "hi" })}\n`);
    const [code] = await once(child, "close");
    expect(code).toBe(1);
    // The client's terminal is not zot's to write to: only zot's log says why.
    expect(stderr).toBe("");
    expect(readFileSync(join(world.home, "logs", "zot.log"), "utf8"))
      .toMatch(/rpc: stdout was closed \(its reader went away\); rpc mode ends, and the work in flight was stopped\n/);
    expect(await world.server.requests[0]!.outcome).toBe("client_closed");
    expect(existsSync(world.cwd)).toBe(true);
  });

  it("a client that leaves after done (as the Go zot's clients do) is a normal end: exit 0, nothing on stderr", async () => {
    world = await makeWorld([{ text: "answer" }]);
    const child = world.start(["--mode", "rpc"]);
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    let seen = "";
    child.stdout!.on("data", (d) => {
      seen += d;
      if (!seen.includes('"type":"done"')) return;
      child.stdout!.destroy();
      child.stdin!.end();
    });
    child.stdin!.write(`${JSON.stringify({ id: "1", type: "prompt", message: "hi" })}\n`);
    const [code] = await once(child, "close");
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  });
});
