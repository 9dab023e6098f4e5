// The pure rules of the MCP bridge: tool names, prompt arguments, result blocks, .mcp.json entries.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TOOL_NAME_PATTERN } from "../../../lib/extensions/runtime/registration-rules.ts";
import { checkManifest } from "../../../lib/extensions/catalog/manifest.ts";
import { readMcpJson } from "../../../lib/extensions/catalog/dot-mcp-json.ts";
import { fillPromptArguments } from "../../../lib/extensions/runtime/mcp/prompt-args.ts";
import { mapToolResult } from "../../../lib/extensions/runtime/mcp/results.ts";
import { bridgedToolName, sanitizeToolName } from "../../../lib/extensions/runtime/mcp/tool-names.ts";

describe("bridged tool names", () => {
  it("are <extension>_<tool>, or the server's name without the prefix", () => {
    expect(bridgedToolName("files", "read_text_file", true)).toBe("files_read_text_file");
    expect(bridgedToolName("files", "read_text_file", false)).toBe("read_text_file");
  });

  it("replace characters providers refuse and stay within 64 characters, long names kept apart", () => {
    expect(sanitizeToolName("my.server/tool name")).toBe("my_server_tool_name");
    const a = bridgedToolName("ext", `${"x".repeat(70)}_a`, true);
    const b = bridgedToolName("ext", `${"x".repeat(70)}_b`, true);
    for (const name of [a, b]) expect(name).toMatch(TOOL_NAME_PATTERN);
    expect(a).not.toBe(b);
  });
});

describe("prompt arguments", () => {
  const declared = [{ name: "city", required: true }, { name: "state" }];

  it("fill positionally in declared order, the last taking the rest, or by key=value", () => {
    expect(fillPromptArguments("Paris Texas", declared)).toEqual({ ok: true, args: { city: "Paris", state: "Texas" } });
    expect(fillPromptArguments("Paris north Texas", declared)).toEqual({ ok: true, args: { city: "Paris", state: "north Texas" } });
    expect(fillPromptArguments("state=Ohio Columbus", declared)).toEqual({ ok: true, args: { city: "Columbus", state: "Ohio" } });
    expect(fillPromptArguments("Lyon", declared)).toEqual({ ok: true, args: { city: "Lyon" } });
  });

  it("refuse a missing required argument and words for a prompt without arguments", () => {
    expect(fillPromptArguments("", declared)).toEqual({ ok: false, error: "missing required argument city" });
    expect(fillPromptArguments("extra", [])).toEqual({ ok: false, error: "takes no arguments" });
  });
});

describe("tool results", () => {
  it("map resource blocks to text naming the URI, structuredContent to JSON only without text, isError to a failure", () => {
    expect(mapToolResult({ content: [{ type: "resource", resource: { uri: "file:///a.txt", text: "hi" } }] }).content)
      .toEqual([{ type: "text", text: "resource file:///a.txt:\nhi" }]);
    expect(mapToolResult({ content: [{ type: "resource_link", uri: "file:///b", name: "b" }] }).content)
      .toEqual([{ type: "text", text: "resource link file:///b (b)" }]);
    expect(mapToolResult({ content: [], structuredContent: { t: 1 } }).content).toEqual([{ type: "text", text: '{"t":1}' }]);
    expect(mapToolResult({ content: [{ type: "text", text: "t is 1" }], structuredContent: { t: 1 } }).content)
      .toEqual([{ type: "text", text: "t is 1" }]);
    expect(mapToolResult({ content: [{ type: "text", text: "no" }], isError: true })).toMatchObject({ isError: true, status: "failed" });
    expect(mapToolResult({ content: [{ type: "audio", data: "x", mimeType: "audio/wav" }] }).content[0])
      .toMatchObject({ type: "text", text: expect.stringMatching(/audio content omitted/) });
  });
});

describe("manifests with mcp", () => {
  it("are MCP extensions; exec and mcp together, or a malformed mcp, are refused with the reason", () => {
    expect(checkManifest("/x", { name: "a", mcp: { command: "node" } }, false).kind).toBe("mcp");
    expect(checkManifest("/x", { name: "a", mcp: { url: "http://127.0.0.1:1/mcp" } }, false).kind).toBe("mcp");
    expect(() => checkManifest("/x", { name: "a", exec: "x", mcp: { command: "node" } }, false)).toThrow(/exec, url, mcp and hooks exclude each other/);
    expect(() => checkManifest("/x", { name: "a", mcp: { command: "" } }, false)).toThrow(/mcp/);
    expect(() => checkManifest("/x", { name: "a", mcp: { url: "ftp://h" } }, false)).toThrow(/http\(s\) URL/);
  });
});

describe(".mcp.json", () => {
  it("turns each mcpServers entry into an MCP manifest, and says what is wrong with the others", async () => {
    const dir = mkdtempSync(join(tmpdir(), "zot-mcpjson-"));
    try {
      expect(await readMcpJson(dir)).toEqual([]);
      writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: {
        a: { command: "node", args: ["s.js"], env: { K: "v" }, timeout: 5 },
        b: { type: "http", url: "http://127.0.0.1:1/mcp", headers: { X: "y" } },
        c: { args: ["no command"] },
      } }));
      const [a, b, c] = await readMcpJson(dir);
      expect(a!.loaded!.manifest).toEqual({ name: "a", mcp: { command: "node", args: ["s.js"], env: { K: "v" } } });
      expect(b!.loaded!.manifest.mcp).toEqual({ url: "http://127.0.0.1:1/mcp", headers: { X: "y" } });
      expect(c!.error).toMatch(/\.mcp\.json: server "c": /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
