// `zot mcp serve` driven by the MCP SDK's client: the tools it offers, calls through the
// session's tool runner (guards, events, progress, cancellation), list_changed, and a clean end.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { connectServe, eventually, isAlive, liveProbePids, makeServeWorld, PROBE, textOf, type Served, type ServeWorld } from "./support.ts";

type Seen = { event: string; tool_name?: string; decision?: string; source?: string; status?: string; is_error?: boolean; origin_extension?: string };

async function seenBy(client: Client): Promise<Seen[]> {
  return JSON.parse(textOf(await client.callTool({ name: "seen", arguments: {} }))) as Seen[];
}

describe("zot mcp serve with the probe extension", () => {
  let world: ServeWorld;
  let served: Served;

  beforeAll(async () => {
    world = makeServeWorld();
    served = await connectServe(world, ["-e", PROBE]);
  });
  afterAll(async () => {
    await served.close();
    world.close();
  });

  it("lists built-in and extension tools, leaving out interactive and inactive deferred ones", async () => {
    const { tools } = await served.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["read", "write", "edit", "bash", "shout", "wait", "unlock", "seen"]));
    expect(names).not.toContain("ask");
    expect(names).not.toContain("later");
    expect(tools.find((t) => t.name === "shout")?.inputSchema).toMatchObject({ type: "object", required: ["text"] });
  });

  it("read returns the file's text from the --cwd project", async () => {
    const result = await served.client.callTool({ name: "read", arguments: { path: "notes.txt" } });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toContain("second line");
  });

  it("an extension tool runs in its extension process", async () => {
    const result = await served.client.callTool({ name: "shout", arguments: { text: "hello" } });
    expect(result).toMatchObject({ isError: false, content: [{ type: "text", text: "HELLO" }] });
  });

  it("a guard extension's refusal comes back as isError and the command does not run", async () => {
    const result = await served.client.callTool({ name: "bash", arguments: { command: `rm -rf ${world.cwd}` } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("refused by the probe guard");
    expect(isAlive(process.pid)).toBe(true);
    const after = await served.client.callTool({ name: "read", arguments: { path: "notes.txt" } });
    expect(after.isError).toBe(false);
  });

  it("subscribed extensions receive tool_call, permission_decision and tool_result for a client's call", async () => {
    await served.client.callTool({ name: "read", arguments: { path: "missing.txt" } });
    const events = (await seenBy(served.client)).filter((e) => e.tool_name === "read");
    const lastRead = events.slice(-3);
    expect(lastRead).toEqual([
      { event: "tool_call", tool_name: "read" },
      { event: "permission_decision", tool_name: "read", decision: "approved", source: "yolo" },
      { event: "tool_result", tool_name: "read", status: "failed", is_error: true },
    ]);
    const blocked = (await seenBy(served.client)).filter((e) => e.tool_name === "bash");
    expect(blocked).toContainEqual({ event: "permission_decision", tool_name: "bash", decision: "denied", source: "policy" });
  });

  it("a tool's progress lines become progress notifications for a call with a progress token", async () => {
    const progress: Array<{ progress: number; message?: string }> = [];
    const result = await served.client.callTool(
      { name: "bash", arguments: { command: "echo one; echo two" } }, undefined,
      { onprogress: (p) => void progress.push(p) },
    );
    expect(textOf(result)).toBe("one\ntwo");
    expect(progress).toEqual([{ progress: 1, message: "one" }, { progress: 2, message: "two" }]);
  });

  it("the client's cancellation cancels the tool run in its extension", async () => {
    const abort = new AbortController();
    const call = served.client.callTool({ name: "wait", arguments: {} }, undefined, { signal: abort.signal });
    await eventually(async () => (await seenBy(served.client)).find((e) => e.event === "permission_decision" && e.tool_name === "wait"));
    abort.abort();
    await expect(call).rejects.toThrow();
    const seen = await eventually(async () => {
      const events = await seenBy(served.client);
      return events.some((e) => e.event === "tool_cancel") ? events : undefined;
    });
    expect(seen).toContainEqual({ event: "tool_result", tool_name: "wait", status: "cancelled", is_error: true });
  });

  it("a tool result that activates a deferred tool sends tools/list_changed, and the next list has it", async () => {
    let changed = 0;
    served.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    await served.client.callTool({ name: "unlock", arguments: {} });
    await eventually(async () => (changed > 0 ? true : undefined));
    const { tools } = await served.client.listTools();
    expect(tools.map((t) => t.name)).toContain("later");
    expect(textOf(await served.client.callTool({ name: "later", arguments: {} }))).toBe("later ran");
  });

  it("stdout carried nothing but MCP messages", () => {
    expect(served.errors.map(String)).toEqual([]);
  });
});

describe("zot mcp serve's tool selection and shutdown", () => {
  let world: ServeWorld;
  const open: Served[] = [];
  const connect = async (...args: Parameters<typeof connectServe>) => {
    const s = await connectServe(...args);
    open.push(s);
    return s;
  };

  beforeAll(() => {
    world = makeServeWorld();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  afterAll(() => world.close());

  it("--tools offers exactly the named built-in and extension tools; others are unknown", async () => {
    const { client } = await connect(world, ["-e", PROBE, "--tools", "read,shout"]);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["read", "shout"]);
    await expect(client.callTool({ name: "bash", arguments: { command: "echo no" } })).rejects.toThrow(/unknown tool "bash" \(offered: read, shout\)/);
  });

  it("--no-builtins offers only extension tools, --no-extension-tools only built-ins", async () => {
    const extOnly = await connect(world, ["-e", PROBE, "--no-builtins"]);
    expect((await extOnly.client.listTools()).tools.map((t) => t.name)).toEqual(["shout", "wait", "unlock", "seen"]);
    const builtinOnly = await connect(world, ["-e", PROBE, "--no-extension-tools"]);
    // No model is configured in this world, so `agent`, which needs one, is not offered.
    expect((await builtinOnly.client.listTools()).tools.map((t) => t.name)).toEqual(["read", "write", "edit", "bash", "glob", "grep", "skill"]);
    // The extension still guards built-in calls it does not offer tools beside.
    const refused = await builtinOnly.client.callTool({ name: "bash", arguments: { command: "rm -rf nothing" } });
    expect(refused).toMatchObject({ isError: true, content: [{ type: "text", text: "refused by the probe guard" }] });
  });

  it("agent is offered once a model is configured (a key, or a base URL for a local server)", async () => {
    const keyed = await connect({ ...world, env: { ...world.env, ANTHROPIC_API_KEY: "sk-test" } }, ["--no-extension-tools"]);
    expect((await keyed.client.listTools()).tools.map((t) => t.name)).toContain("agent");
    const local = await connect({ ...world, env: { ...world.env, ZOT_PROVIDER: "openai", ZOT_BASE_URL: "http://127.0.0.1:9/v1" } }, ["--no-extension-tools"]);
    expect((await local.client.listTools()).tools.map((t) => t.name)).toContain("agent");
  });

  it("--jail keeps the file tools inside --cwd", async () => {
    const { client } = await connect(world, ["--jail", "--tools", "read"]);
    const result = await client.callTool({ name: "read", arguments: { path: "../pids" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/outside|jail/i);
  });

  it("closing the client stops zot and every extension it started", async () => {
    const served = await connectServe(world, ["-e", PROBE]);
    const zotPid = served.transport.pid!;
    expect(liveProbePids(world).length).toBeGreaterThan(0);
    await served.close();
    await eventually(async () => (!isAlive(zotPid) && liveProbePids(world).length === 0 ? true : undefined));
  });
});
