// MCP servers as extensions, against the real everything server (one host for the whole file:
// the server takes a while to start): tools become `<ext>_<tool>`, results map to zot blocks,
// prompts become commands, progress reaches the tool context.
import { getEventListeners } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Tool, ToolExecutionContext } from "../../../lib/tools/types.ts";
import { sandbox, startHost, type Sandbox, type TestHost } from "../helpers.ts";
import { everything, writeMcpExtension } from "./support.ts";

let sb: Sandbox;
let t: TestHost;
beforeAll(async () => {
  sb = await sandbox();
  writeMcpExtension(sb.globalDir, "every", everything());
  writeMcpExtension(sb.globalDir, "bare", everything(), { prefix: false });
  t = await startHost(sb);
}, 30_000);
afterAll(async () => {
  await sb.cleanup();
});

const ctx = (extra: Partial<ToolExecutionContext> = {}): ToolExecutionContext =>
  ({ cwd: sb.cwd, signal: new AbortController().signal, ...extra });
const tool = (name: string): Tool => {
  const found = t.host.tools().find((x) => x.name === name);
  if (!found) throw new Error(`no tool ${name} among ${t.host.tools().map((x) => x.name).join(", ")}`);
  return found;
};

describe("an MCP server as an extension", () => {
  it("registers the server's tools as <extension>_<tool>, and with prefix false under the server's names", () => {
    const names = t.host.tools().map((x) => x.name);
    expect(names).toEqual(expect.arrayContaining(["every_echo", "every_get-sum", "echo", "get-sum"]));
    expect(tool("every_echo")).toMatchObject({ source: { kind: "extension", extension: "every" },
      schema: { type: "object", properties: { message: { type: "string" } } } });
    expect(tool("echo").source).toEqual({ kind: "extension", extension: "bare" });
  });

  it("calls that share one signal leave no abort listener on it (the SDK never removes its own)", async () => {
    const signal = new AbortController().signal;
    for (let i = 0; i < 20; i++) expect((await tool("every_echo").execute({ message: `n${i}` }, ctx({ signal }))).isError).toBe(false);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("maps text, image, resource links, embedded resources and structured content to zot blocks", async () => {
    expect(await tool("every_echo").execute({ message: "hi there" }, ctx()))
      .toMatchObject({ isError: false, content: [{ type: "text", text: "Echo: hi there" }] });
    const image = await tool("every_get-tiny-image").execute({}, ctx());
    expect(image.content.some((b) => b.type === "image" && b.mime_type === "image/png" && b.data.length > 0)).toBe(true);
    const links = await tool("every_get-resource-links").execute({ count: 2 }, ctx());
    expect(links.content.filter((b) => b.type === "text" && /^resource link \S+:\/\//.test(b.text))).toHaveLength(2);
    const embedded = await tool("every_get-resource-reference").execute({ resourceType: "Text", resourceId: 1 }, ctx());
    expect(embedded.content.some((b) => b.type === "text" && /^resource \S+:\/\/\S+/.test(b.text))).toBe(true);
    const structured = await tool("every_get-structured-content").execute({ location: "Chicago" }, ctx());
    expect(structured.isError).toBe(false);
    expect(structured.content.some((b) => b.type === "text" && /"temperature"/.test(b.text))).toBe(true);
  });

  it("a server's error result is a failed outcome with is_error", async () => {
    const outcome = await tool("every_get-sum").execute({ a: "not a number" }, ctx());
    expect(outcome).toMatchObject({ isError: true, status: "failed" });
  });

  it("progress notifications reach the tool context as progress lines", async () => {
    const lines: string[] = [];
    const outcome = await tool("every_trigger-long-running-operation").execute({ duration: 0.3, steps: 3 },
      ctx({ onProgress: (text) => lines.push(text) }));
    expect(outcome.isError).toBe(false);
    // The server does not wait for its notifications before answering: the last one may trail the result.
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.slice(0, 2)).toEqual([expect.stringMatching(/\b1\/3\b/), expect.stringMatching(/\b2\/3\b/)]);
  });

  it("each prompt is a slash command answering with a prompt action, arguments positional or key=value", async () => {
    const names = t.host.commands().map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(["every:simple-prompt", "every:args-prompt", "simple-prompt"]));
    expect(t.host.commands().find((c) => c.name === "every:args-prompt")?.description).toMatch(/\(city \[state\]\)/);
    expect(await t.host.invokeCommand("every:simple-prompt", "")).toMatchObject({ action: "prompt", prompt: expect.any(String) });
    const positional = await t.host.invokeCommand("every:args-prompt", "Paris Texas");
    expect(positional).toMatchObject({ action: "prompt", prompt: expect.stringMatching(/Paris.*Texas/s) });
    const named = await t.host.invokeCommand("every:args-prompt", "state=Ohio city=Columbus");
    expect(named).toMatchObject({ action: "prompt", prompt: expect.stringMatching(/Columbus.*Ohio/s) });
    expect(await t.host.invokeCommand("every:args-prompt", "")).toEqual({ error: expect.stringMatching(/missing required argument city/) });
  });

  it("the doctor's report names the server, its version, tools, prompts and resources", () => {
    const report = t.host.reports().find((r) => r.name === "every")!;
    expect(report).toMatchObject({ kind: "mcp", status: "ok", running: true, exec: `${everything().command} stdio` });
    expect(report.mcp).toMatchObject({ server: "mcp-servers/everything", version: expect.stringMatching(/^\d/),
      transport: "stdio", prompts: expect.arrayContaining(["simple-prompt", "args-prompt"]) });
    expect(report.mcp!.tools).toEqual(expect.arrayContaining(["echo", "get-sum"]));
    expect(report.mcp!.resources.length).toBeGreaterThan(0);
  });
});
