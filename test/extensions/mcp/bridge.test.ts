// MCP servers as extensions, against the real everything server: tools become `<ext>_<tool>`,
// results map to zot blocks, prompts become commands, progress and cancellation reach the server.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Tool } from "../../../lib/tools/types.ts";
import { sandbox, startHost, type Sandbox } from "../helpers.ts";
import { everything, writeMcpExtension } from "./support.ts";

let sb: Sandbox;
beforeEach(async () => {
  sb = await sandbox();
});
afterEach(async () => {
  await sb.cleanup();
});

const ctx = (extra: Partial<Parameters<Tool["execute"]>[1]> = {}) => ({ cwd: sb.cwd, signal: new AbortController().signal, ...extra });

describe("an MCP server as an extension", () => {
  it("registers the server's tools as <extension>_<tool> and calls them", async () => {
    writeMcpExtension(sb.globalDir, "every", everything());
    const { host } = await startHost(sb, { timeouts: { hello: 10_000 } });
    const tools = host.tools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["every_echo", "every_get-sum", "every_get-tiny-image"]));
    const echo = tools.find((t) => t.name === "every_echo")!;
    expect(echo.source).toEqual({ kind: "extension", extension: "every" });
    const outcome = await echo.execute({ message: "hi there" }, ctx());
    expect(outcome).toMatchObject({ isError: false, content: [{ type: "text", text: "Echo: hi there" }] });
    const image = await tools.find((t) => t.name === "every_get-tiny-image")!.execute({}, ctx());
    expect(image.content.some((b) => b.type === "image" && b.mime_type === "image/png" && b.data.length > 0)).toBe(true);
    const [report] = host.reports();
    expect(report).toMatchObject({ name: "every", kind: "mcp", status: "ok", running: true });
  });
});
