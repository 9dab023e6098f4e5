// The one-shot modes write stdout with direct, blocking writes to fd 1 (lib/std-output.ts). A
// reader may hand zot a pipe another process made non-blocking, and read it late: every byte
// still arrives, in order, as it would through a stream.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, ZOT, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

// Python starts zot with its stdout on a pipe set O_NONBLOCK, waits before reading (so zot's
// writes fill the pipe and meet EAGAIN), then passes on all it read.
const SLOW_NONBLOCKING_READER = `
import os, subprocess, sys, time
r, w = os.pipe()
os.set_blocking(w, False)
child = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=w)
os.close(w)
time.sleep(0.5)
chunks = []
while True:
    data = os.read(r, 65536)
    if not data:
        break
    chunks.append(data)
sys.stdout.buffer.write(b"".join(chunks))
sys.exit(child.wait())
`;

describe("direct output", () => {
  for (const mode of [["--mode", "json"], ["-p"]]) {
    it(`zot ${mode.join(" ")} delivers a long reply whole through a non-blocking pipe read late`, async () => {
      // 400 KB in 200 pieces: far more than a pipe holds.
      const pieces = Array.from({ length: 200 }, (_, i) => `${`piece${i} `.repeat(250)}\n`);
      const reply = pieces.join("");
      world = await makeWorld([{ text: pieces }]);
      // Not spawnSync: the scripted model server answers from this process.
      const child = spawn("python3", ["-c", SLOW_NONBLOCKING_READER, process.execPath, ZOT, ...mode, "--no-session", "say it"],
        { cwd: world.cwd, env: world.env, stdio: ["ignore", "pipe", "pipe"] });
      const run = { stdout: "", stderr: "" };
      child.stdout.setEncoding("utf8").on("data", (d: string) => (run.stdout += d));
      child.stderr.setEncoding("utf8").on("data", (d: string) => (run.stderr += d));
      const [status] = await once(child, "close");
      expect(status, run.stderr).toBe(0);
      if (mode[0] === "-p") {
        expect(run.stdout).toBe(reply);
        return;
      }
      const lines = run.stdout.trim().split("\n").map((line) => JSON.parse(line) as { type: string; delta?: string; text?: string });
      expect(lines.at(-1)).toMatchObject({ type: "done", stop: "end_turn" });
      const streamed = lines.filter((l) => l.type === "text_delta").map((l) => l.delta ?? l.text ?? "").join("");
      expect(streamed).toBe(reply);
    });
  }
});
