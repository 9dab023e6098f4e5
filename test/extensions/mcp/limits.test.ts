// What MCP servers send that zot must bound or tell apart: a message over the MCP limit is that
// server's fault (a failed call and an ext_error, never zot's crash), what the model gets of any
// extension or MCP tool result is capped like the built-in read, with a note, and two server
// tools whose names sanitize alike stay two tools. Real servers: the filesystem server from the
// lockfile, tiny ones on the SDK, and a Node protocol extension.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { toolOutputLimitFromEnv } from "../../../lib/extensions/runtime/output-cap.ts";
import { MCP_MESSAGE_MAX_BYTES } from "../../../lib/extensions/runtime/mcp/stdio-transport.ts";
import { processAlive } from "../../../lib/process/group.ts";
import { sandbox, startHost, tool, waitFor, writeExtension, type Sandbox, type TestHost } from "../helpers.ts";
import { FILESYSTEM, sdkServerSource, writeMcpExtension, writeScript } from "./support.ts";
import { hostPidIn } from "../../support/host-pid.ts";

let sb: Sandbox;
beforeEach(async () => void (sb = await sandbox()));
afterEach(() => sb.cleanup());

const ctx = () => ({ cwd: sb.cwd, signal: new AbortController().signal });
const call = (t: TestHost, name: string, args: Record<string, unknown> = {}) => t.host.tools().find((x) => x.name === name)!.execute(args, ctx());
const text = (outcome: { content: Array<{ type: string; text?: string }> }) => outcome.content.map((b) => b.text ?? "").join("");

describe("an MCP message over the size limit", () => {
  it("fails the call with the size and the limit, disconnects the server with an ext_error, and zot goes on", async () => {
    const pidFile = join(sb.scratch, "huge.pid");
    const script = writeScript(sb.scratch, "huge.mjs", sdkServerSource(`
(await import("node:fs")).writeFileSync(${JSON.stringify(pidFile)}, (await import("node:fs")).readlinkSync("/proc/self") + "@" + (await import("node:fs")).readlinkSync("/proc/self/ns/pid"));
server.registerTool("huge", { description: "too much" }, async () => ({ content: [{ type: "text", text: "x".repeat(${MCP_MESSAGE_MAX_BYTES + 1024}) }] }));`));
    writeMcpExtension(sb.globalDir, "big", { command: process.execPath, args: [script] });
    const t = await startHost(sb);
    const pid = hostPidIn(pidFile);
    const outcome = await call(t, "big_huge");
    expect(outcome.isError).toBe(true);
    expect(text(outcome)).toMatch(new RegExp(`^MCP tool huge failed: the server sent a message of more than \\d+ bytes; the limit is ${MCP_MESSAGE_MAX_BYTES} bytes \\(16 MiB\\); it was disconnected`));
    expect(t.of("ext_error").map((e) => e.message)).toEqual([expect.stringMatching(/extension "big" stopped: sent a message of more than \d+ bytes; the limit is/)]);
    expect(t.host.tools().map((x) => x.name)).toEqual([]);
    await waitFor(() => !processAlive(pid), "the server to be stopped");
  });
});

describe("what the model gets of a tool result", () => {
  it("a 2 MB file read through the filesystem server is cut to 50 KiB, with a note saying how much there was", async () => {
    writeFileSync(join(sb.cwd, "big.txt"), "line of the big file\n".repeat(100_000));
    writeMcpExtension(sb.globalDir, "files", { command: FILESYSTEM, args: [sb.cwd] });
    const t = await startHost(sb);
    const outcome = await call(t, "files_read_text_file", { path: join(sb.cwd, "big.txt") });
    const shown = text(outcome);
    expect(Buffer.byteLength(shown)).toBeLessThan(51 * 1024 + 300);
    expect(shown).toMatch(/\[MCP tool files_read_text_file returned 2\.0 MiB of text; the first 50 KiB are shown\. Ask it for less .*ZOT_TOOL_OUTPUT_MAX_BYTES/);
    expect(outcome.details).toMatchObject({ truncated: true, output_bytes: 2_100_000 });
  });

  it("a protocol extension's result is capped the same way, and a raised limit lets it through", async () => {
    writeExtension(sb.globalDir, "chatty", { name: "chatty", register: [tool("chatty")],
      on: { tool_call: `ctx.send({type:"tool_result",id:msg.id,content:[{type:"text",text:"y".repeat(200000)}]})` } });
    const capped = await startHost(sb);
    expect(text(await call(capped, "chatty"))).toMatch(/^y{51200}\n\n\[Extension tool chatty returned 195 KiB of text; the first 50 KiB are shown/);
    await capped.host.shutdown();
    const raised = await startHost(sb, { limits: { toolOutputBytes: 256 * 1024 } });
    expect(text(await call(raised, "chatty"))).toBe("y".repeat(200_000));
  });

  it("the limit comes from ZOT_TOOL_OUTPUT_MAX_BYTES (bytes) or MAX_MCP_OUTPUT_TOKENS (tokens, four bytes each)", () => {
    expect(toolOutputLimitFromEnv({ ZOT_TOOL_OUTPUT_MAX_BYTES: "100000", MAX_MCP_OUTPUT_TOKENS: "5" })).toBe(100_000);
    expect(toolOutputLimitFromEnv({ MAX_MCP_OUTPUT_TOKENS: "25000" })).toBe(100_000);
    expect(toolOutputLimitFromEnv({ ZOT_TOOL_OUTPUT_MAX_BYTES: "lots" })).toBeUndefined();
  });
});

describe("server tool names that sanitize to one name", () => {
  it("stay apart: the name that needed no change keeps it, the other gets a stable suffix; each call reaches its own tool", async () => {
    const script = writeScript(sb.scratch, "twins.mjs", sdkServerSource(`
for (const name of ["my.tool", "my_tool"]) server.registerTool(name, { description: "I am " + name }, async () => ({ content: [{ type: "text", text: name }] }));`));
    writeMcpExtension(sb.globalDir, "tiny", { command: process.execPath, args: [script] });
    const t = await startHost(sb);
    const tools = Object.fromEntries(t.host.tools().map((x) => [x.name, x.description]));
    const dotted = Object.keys(tools).find((name) => /^tiny_my_tool_[0-9a-f]{8}$/.test(name))!;
    expect(tools).toEqual({ tiny_hello: "says hello", tiny_my_tool: "I am my_tool", [dotted]: "I am my.tool" });
    expect(text(await call(t, "tiny_my_tool"))).toBe("my_tool");
    expect(text(await call(t, dotted))).toBe("my.tool");
    expect(t.host.reports()[0]!.mcp!.tool_names).toEqual({ hello: "tiny_hello", "my.tool": dotted, my_tool: "tiny_my_tool" });
    await t.host.shutdown();
    const again = await startHost(sb);
    expect(again.host.tools().map((x) => x.name)).toContain(dotted); // stable across starts
  });
});
