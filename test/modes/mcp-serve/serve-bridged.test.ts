// `zot mcp serve` offers bridged MCP tools like any extension tool: a real third-party server
// (server-everything) loaded as an MCP extension, called by an MCP client through zot.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everything, writeMcpExtension } from "../../extensions/mcp/support.ts";
import { connectServe, makeServeWorld, PROBE, textOf, type Served, type ServeWorld } from "./support.ts";

describe("zot mcp serve with a bridged MCP server", () => {
  let world: ServeWorld;
  let served: Served;

  beforeAll(async () => {
    world = makeServeWorld();
    const dir = writeMcpExtension(world.root, "everything", everything());
    served = await connectServe(world, ["-e", dir, "-e", PROBE, "--no-builtins"]);
  });
  afterAll(async () => {
    await served.close();
    world.close();
  });

  it("lists the bridged tools under their extension's prefix and calls them through zot", async () => {
    const names = (await served.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("everything_echo");
    const result = await served.client.callTool({ name: "everything_echo", arguments: { message: "through zot" } });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toContain("through zot");
  });

  it("a subscribed extension receives the tool_result of a bridged call made by the client", async () => {
    await served.client.callTool({ name: "everything_echo", arguments: { message: "observed" } });
    const seen = JSON.parse(textOf(await served.client.callTool({ name: "seen", arguments: {} }))) as Array<Record<string, unknown>>;
    expect(seen).toContainEqual({ event: "tool_result", tool_name: "everything_echo", status: "completed", is_error: false });
  });
});
