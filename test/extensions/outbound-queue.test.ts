import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { OutboundQueue } from "../../lib/extensions/runtime/outbound-queue.ts";
import { OUTBOUND_QUEUE_MAX_BYTES, OUTBOUND_QUEUE_MAX_FRAMES } from "../../lib/protocol/index.ts";

let child: ChildProcess | undefined;
afterEach(() => {
  child?.stdin?.destroy();
  child?.kill("SIGKILL");
  child = undefined;
});

/** A real subprocess that never reads its stdin: its pipe fills and writes stay in flight. */
function deafProcess() {
  child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: ["pipe", "ignore", "ignore"] });
  return child.stdin!;
}

function queueOnDeafPipe() {
  const fatal: string[] = [];
  const queue = new OutboundQueue(deafProcess(), {
    maxFrames: OUTBOUND_QUEUE_MAX_FRAMES, maxBytes: OUTBOUND_QUEUE_MAX_BYTES, writeTimeoutMs: 60_000,
    onFatal: (reason) => fatal.push(reason),
  });
  // Larger than any pipe buffer: this frame stays in flight for the whole test.
  const inFlight = queue.enqueue(`${"i".repeat(2 * 1024 * 1024)}\n`)!;
  return { queue, fatal, inFlight };
}

describe("Ordering, delivery: the bounded outbound queue", () => {
  it("holds 256 frames plus the one in flight; the next one overflows and disconnects", async () => {
    const { queue, fatal, inFlight } = queueOnDeafPipe();
    expect(inFlight.state).toBe("in_flight");
    const queued = Array.from({ length: OUTBOUND_QUEUE_MAX_FRAMES }, (_, i) => queue.enqueue(`{"type":"event","n":${i}}\n`));
    expect(queued.every((w) => w?.state === "queued")).toBe(true);
    expect(fatal).toEqual([]);

    expect(queue.enqueue(`{"type":"event","n":"one too many"}\n`)).toBeUndefined();
    expect(fatal).toEqual([expect.stringMatching(/outbound queue overflow \(more than 256 frames or 16777216 bytes waiting\)/)]);
    expect(queue.closed).toBe(true);
    // Nothing is silently kept: every frame, the in-flight one included, is reported unwritten.
    expect(await Promise.all([inFlight, ...queued].map((w) => w!.written))).toEqual(Array(257).fill(false));
    expect(queue.enqueue(`{"type":"event"}\n`)).toBeUndefined();
  });

  it("holds 16 MiB of queued bytes plus the one in flight; one more byte overflows", () => {
    const { queue, fatal } = queueOnDeafPipe();
    const fourMiB = `${"q".repeat(4 * 1024 * 1024 - 1)}\n`;
    for (let i = 0; i < 4; i++) expect(queue.enqueue(fourMiB)?.state).toBe("queued");
    expect(fatal).toEqual([]);
    expect(queue.enqueue("\n")).toBeUndefined();
    expect(fatal).toEqual([expect.stringMatching(/outbound queue overflow/)]);
  });

  it("a queued frame can be withdrawn, freeing its place; a frame in flight cannot", () => {
    const { queue, fatal, inFlight } = queueOnDeafPipe();
    const frames = Array.from({ length: OUTBOUND_QUEUE_MAX_FRAMES }, () => queue.enqueue(`{"type":"event"}\n`)!);
    expect(queue.withdraw(inFlight)).toBe(false);
    expect(queue.withdraw(frames[10]!)).toBe(true);
    expect(frames[10]!.state).toBe("dropped");
    expect(queue.enqueue(`{"type":"event"}\n`)?.state).toBe("queued");
    expect(fatal).toEqual([]);
  });

  it("drain resolves false while the consumer is not reading, and true once everything is written", async () => {
    const stdin = deafProcess();
    const queue = new OutboundQueue(stdin, { maxFrames: 256, maxBytes: 16 * 1024 * 1024, writeTimeoutMs: 60_000, onFatal: () => undefined });
    expect(await queue.drain(10)).toBe(true); // nothing queued
    queue.enqueue(`${"d".repeat(2 * 1024 * 1024)}\n`);
    expect(await queue.drain(50)).toBe(false);
    // A consumer that reads: the same frames flush and drain completes.
    child?.kill("SIGKILL");
    child = spawn(process.execPath, ["-e", "process.stdin.resume()"], { stdio: ["pipe", "ignore", "ignore"] });
    const reading = new OutboundQueue(child.stdin!, { maxFrames: 256, maxBytes: 16 * 1024 * 1024, writeTimeoutMs: 60_000, onFatal: () => undefined });
    const writes = Array.from({ length: 20 }, (_, i) => reading.enqueue(`${String(i).repeat(100 * 1024)}\n`)!);
    expect(await reading.drain(10_000)).toBe(true);
    expect(writes.every((w) => w.state === "written")).toBe(true);
    queue.close();
  });

  it("frames enqueued in the same tick go out in order in at most two pipe writes", async () => {
    child = spawn(process.execPath, ["-e", "process.stdin.pipe(process.stdout)"], { stdio: ["pipe", "pipe", "ignore"] });
    const stdin = child.stdin!;
    let writes = 0;
    const write = stdin.write.bind(stdin) as (...args: unknown[]) => boolean;
    stdin.write = ((...args: unknown[]) => (writes++, write(...args))) as typeof stdin.write;
    let echoed = "";
    child.stdout!.on("data", (chunk: Buffer) => (echoed += chunk.toString()));
    const queue = new OutboundQueue(stdin, { maxFrames: 256, maxBytes: 16 * 1024 * 1024, writeTimeoutMs: 60_000, onFatal: () => undefined });
    const frames = Array.from({ length: 50 }, (_, i) => `{"type":"event","n":${i}}\n`);
    const queued = frames.map((f) => queue.enqueue(f)!);
    expect(queued.slice(1).every((w) => w.state === "queued")).toBe(true);
    expect(await queue.drain(10_000)).toBe(true);
    expect(writes).toBeLessThanOrEqual(2);
    expect(queued.every((w) => w.state === "written")).toBe(true);
    await expect.poll(() => echoed).toBe(frames.join(""));
  });
});

describe("the write bound on every runtime", () => {
  // Bun buffers pipe writes in user space and may report a write done before the pipe took it.
  it.each([["bun", "node_modules/.bin/bun", ["test/fixtures/runtimes/write-bound.ts"]],
    ["deno", "node_modules/.bin/deno", ["run", "-A", "test/fixtures/runtimes/write-bound.ts"]]])(
    "under %s, six 100 KB frames to a child that never reads disconnect it at the write bound", async (_runtime, program, args) => {
      const root = join(import.meta.dirname, "..", "..");
      const run = spawn(join(root, program), args, { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      run.stdout!.on("data", (d) => (out += d));
      await new Promise((r) => run.on("close", r));
      // The fixture gives up after 3 s with reason null: a reason means the bound fired first.
      const { reason } = JSON.parse(out) as { reason: string | null };
      expect(reason).toBe("a write to the extension's stdin was blocked for 300 ms");
    }, 30_000);
});
