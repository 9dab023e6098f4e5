// A WebSocket extension from zot's json mode (the Node bundle): the scripted model calls a tool
// that a server process registered over the socket, a killed server fails the call in flight and
// is reconnected once it is back, and two zots share that server at once.
import type { ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "../extensions/helpers.ts";
import type { RecordedRequest, StaticTurn } from "../support/model-server.ts";
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
    let restarted = false;
    // The failed result is in: the server comes back. A model calls only the tools it is offered,
    // so until zot has reconnected and offers echo again, each turn makes a harmless bash call.
    const untilEchoOffered = async (request: RecordedRequest): Promise<StaticTurn> => {
      if (!restarted) {
        restarted = true;
        fixture = await startWsFixture(port);
        server = fixture.process;
      }
      const offered = (request.body.tools as Array<{ name: string }> | undefined ?? []).some((t) => t.name === "echo");
      world!.server.push(offered ? { text: "done." } : untilEchoOffered);
      return offered ? echoCall("back") : { tool_calls: [{ id: `call-wait-${world!.server.requests.length}`, name: "bash", args: { command: "true" } }], stop: "tool_use" };
    };
    world = await makeWorld([{ tool_calls: [{ id: "call-hang", name: "hang", args: {} }], stop: "tool_use" }, untilEchoOffered]);
    fixture = await startWsFixture();
    port = fixture.port;
    server = fixture.process;
    urlExtension(world, port);
    // Tried again 50 ms after the drop (500 ms by default): few harmless calls wait for it.
    world.env.ZOT_EXTENSION_TIMEOUTS = "reconnect=50";
    const killed = fixture;
    // The waiting calls are model steps: room for many, should the machine be slow to reconnect.
    const child = world.start(["--mode", "json", "--no-session", "--max-steps", "500", "use hang"]);
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
    const echoed = results.filter((r) => r.tool_name === "echo");
    expect(echoed).toHaveLength(1);
    expect(echoed[0]).toMatchObject({ status: "completed" });
    expect(JSON.stringify(echoed[0])).toContain("session 1: back");
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
