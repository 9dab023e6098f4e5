// A WebSocket extension from zot's json mode (the Node bundle): the scripted model calls a tool
// that a server process registered over the socket, a killed server fails the call in flight and
// is reconnected once it is back, and two zots share that server at once.
import type { ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "../extensions/helpers.ts";
import { startWsFixture } from "../support/ws-fixture.ts";
import { jsonLines, makeWorld, type World } from "./support.ts";

let world: World | undefined;
let server: ChildProcess | undefined;
afterEach(async () => {
  server?.kill("SIGKILL");
  await world?.close();
  world = server = undefined;
});

/** The fixture server on a free port (killed after each test); resolves with the port once it listens. */
async function startServer(): Promise<number> {
  const fixture = await startWsFixture();
  server = fixture.process;
  return fixture.port;
}

function urlExtension(w: World, port: number): void {
  const dir = join(w.home, "extensions", "remote");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "remote", url: `ws://127.0.0.1:${port}/` }));
}

const echoCall = (text: string) => ({ tool_calls: [{ id: `call-${text}`, name: "echo", args: { text } }], stop: "tool_use" });
const toolText = (stdout: string) => jsonLines(stdout).filter((l) => l.type === "tool_result").map((l) => JSON.stringify(l));

describe("a WebSocket extension's tool in json mode", () => {
  it("answers the scripted model's call, and the run ends with done", async () => {
    world = await makeWorld([echoCall("hi"), { text: "done." }]);
    urlExtension(world, await startServer());
    const r = await world.run(["--mode", "json", "--no-session", "use echo"]);
    expect(r.code, r.stderr).toBe(0);
    expect(toolText(r.stdout).join("\n")).toContain("session 1: hi");
    expect(jsonLines(r.stdout).at(-1)).toMatchObject({ type: "done" });
  });

  it("killing the server mid-call gives a failed result and a diagnostic; restarted, the same run reconnects and calls it again", async () => {
    let port = 0;
    let fixture: Awaited<ReturnType<typeof startWsFixture>>;
    world = await makeWorld([
      { tool_calls: [{ id: "call-hang", name: "hang", args: {} }], stop: "tool_use" },
      // The failed result is in: the server comes back, and the next call waits for zot to reconnect.
      async () => {
        fixture = await startWsFixture(port);
        server = fixture.process;
        await waitFor(() => fixture.stderr().includes("got hello_ack"), "zot to reconnect");
        return echoCall("back");
      },
      { text: "done." },
    ]);
    fixture = await startWsFixture();
    port = fixture.port;
    server = fixture.process;
    urlExtension(world, port);
    const killed = fixture;
    const child = world.start(["--mode", "json", "--no-session", "use hang"]);
    child.stdin!.end();
    let stdout = "";
    child.stdout!.on("data", (d) => (stdout += d));
    await waitFor(() => killed.stderr().includes("got tool_call"), "the hang call to arrive");
    const exited = new Promise((r) => killed.process.once("exit", r));
    killed.process.kill("SIGKILL");
    await exited;
    const code = await new Promise((done) => child.on("close", done));
    expect(code).toBe(0);
    const lines = jsonLines(stdout);
    const results = lines.filter((l) => l.type === "tool_result");
    expect(results[0]).toMatchObject({ tool_name: "hang", status: "failed" });
    expect(JSON.stringify(results[0])).toContain("the extension stopped");
    expect(lines.filter((l) => l.type === "ext_error").map((l) => l.message).join("\n")).toMatch(/ws:\/\/127\.0\.0\.1:\d+\/|closed the connection/);
    expect(results[1]).toMatchObject({ tool_name: "echo", status: "completed" });
    expect(JSON.stringify(results[1])).toContain("session 1: back");
    expect(lines.at(-1)).toMatchObject({ type: "done" });
  });

  it("two zot processes use one server at the same time, each in its own session", async () => {
    // Each zot's first request asks for a call and its second (with the result) for text, in
    // whatever order the two zots' requests arrive.
    const turn = (request: { body: any }) => (JSON.stringify(request.body.messages).includes("tool_result") ? { text: "answered" } : echoCall("x"));
    world = await makeWorld([turn, turn, turn, turn]);
    urlExtension(world, await startServer());
    const [first, second] = await Promise.all([
      world.run(["--mode", "json", "--no-session", "first"]),
      world.run(["--mode", "json", "--no-session", "second"]),
    ]);
    expect(first!.code, first!.stderr).toBe(0);
    expect(second!.code, second!.stderr).toBe(0);
    const answers = [...toolText(first!.stdout), ...toolText(second!.stdout)].join("\n");
    expect(answers).toMatch(/session [12]: x/);
    const sessions = new Set([...answers.matchAll(/session (\d+):/g)].map((m) => m[1]));
    expect(sessions).toEqual(new Set(["1", "2"]));
  });
});
