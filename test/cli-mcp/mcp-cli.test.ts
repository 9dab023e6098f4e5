// `zot mcp add|list|remove` through the real bundled CLI, and `zot ext doctor` starting the real
// filesystem server from the folder `zot mcp add` wrote.
import { mkdirSync, readFileSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runZot, type Sandbox } from "../cli-ext/support/cli.ts";
import { FILESYSTEM } from "../extensions/mcp/support.ts";

let sb: Sandbox;
beforeEach(() => { sb = makeSandbox(); });
afterEach(() => sb.cleanup());

const zot = (...args: string[]) => runZot(args, { cwd: sb.project, env: sb.env });
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, "extension.json"), "utf8"));

describe("zot mcp", () => {
  it("--help lists its commands; an unknown command is a usage error", async () => {
    const help = await zot("mcp", "--help");
    expect(help.code).toBe(0);
    for (const name of ["add", "list", "serve", "remove"]) expect(help.stdout).toMatch(new RegExp(`^  ${name} `, "m"));
    expect(await zot("mcp", "frob")).toMatchObject({ code: 2, stderr: expect.stringMatching(/^zot: unknown command "mcp frob"/) });
    expect(await zot("mcp", "add", "--help")).toMatchObject({ code: 0, stdout: expect.stringContaining("zot mcp add NAME") });
  });

  it("list and remove render their declared flags as --help and answer a bad flag with exit 2 and a pointer to it", async () => {
    const listHelp = await zot("mcp", "list", "--help");
    expect(listHelp).toMatchObject({ code: 0, stdout: expect.stringMatching(/USAGE zot mcp list \[OPTIONS\]/) });
    expect(listHelp.stdout).toMatch(/--json\s+print a JSON array/);
    const removeHelp = await zot("mcp", "remove", "-h");
    expect(removeHelp).toMatchObject({ code: 0, stdout: expect.stringMatching(/USAGE zot mcp remove \[OPTIONS\] <NAME>/) });
    expect(removeHelp.stdout).toMatch(/--project\s+only consider project servers/);
    expect(await zot("mcp", "list", "--frob")).toMatchObject({ code: 2, stdout: "",
      stderr: "zot: unknown option --frob\nRun `zot mcp list --help` for usage.\n" });
    expect(await zot("mcp", "remove")).toMatchObject({ code: 2, stdout: "",
      stderr: "zot: missing <name>\nRun `zot mcp remove --help` for usage.\n" });
    expect(await zot("mcp", "remove", "files", "--project", "--global")).toMatchObject({ code: 2,
      stderr: expect.stringMatching(/^zot: --project and --global exclude each other\n/) });
  });
});

describe("zot mcp add", () => {
  it("writes a global stdio MCP extension folder, the command after --", async () => {
    const r = await zot("mcp", "add", "files", "--env", "LOG=1", "--", FILESYSTEM, "--flag-of-the-server", ".");
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(manifestOf(join(sb.globalRoot, "files"))).toEqual({ name: "files", description: "MCP server files",
      mcp: { command: FILESYSTEM, args: ["--flag-of-the-server", "."], env: { LOG: "1" } } });
  });

  it("writes a project HTTP MCP extension with headers, and --no-prefix", async () => {
    const r = await zot("mcp", "add", "remote", "--project", "--url", "http://127.0.0.1:9/mcp", "--header", "Authorization: Bearer x",
      "--header", "X-Team=core", "--no-prefix");
    expect(r.code).toBe(0);
    expect(manifestOf(join(sb.projectRoot, "remote"))).toEqual({ name: "remote", description: "MCP server remote",
      mcp: { url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer x", "X-Team": "core" } }, prefix: false });
  });

  it("refuses a taken name, a bad URL and a missing server with a clear error, and writes nothing", async () => {
    expect((await zot("mcp", "add", "one", "--", "node")).code).toBe(0);
    const taken = await zot("mcp", "add", "one", "--", "node");
    expect(taken).toMatchObject({ code: 1, stderr: expect.stringMatching(/already exists/) });
    const badUrl = await zot("mcp", "add", "two", "--url", "ftp://x");
    expect(badUrl).toMatchObject({ code: 1, stderr: expect.stringMatching(/mcp\.url must be an http\(s\) URL/) });
    const none = await zot("mcp", "add", "three");
    expect(none).toMatchObject({ code: 2, stderr: expect.stringMatching(/missing the server/) });
    expect(existsSync(join(sb.globalRoot, "two"))).toBe(false);
    expect(existsSync(join(sb.globalRoot, "three"))).toBe(false);
  });
});

describe("zot mcp list and remove", () => {
  it("lists folders and .mcp.json servers; removes only folders zot mcp add wrote", async () => {
    await zot("mcp", "add", "files", "--", FILESYSTEM, ".");
    writeFileSync(join(sb.project, ".mcp.json"), JSON.stringify({ mcpServers: { web: { type: "http", url: "http://127.0.0.1:9/mcp" } } }));
    mkdirSync(join(sb.globalRoot, "plain"), { recursive: true });
    writeFileSync(join(sb.globalRoot, "plain", "extension.json"), JSON.stringify({ name: "plain", exec: "node" }));
    const list = await zot("mcp", "list", "--json");
    // --cwd=PATH names the project from anywhere, and lists the same servers.
    expect(await runZot(["mcp", "list", "--json", `--cwd=${sb.project}`], { cwd: sb.base, env: sb.env })).toMatchObject({ code: 0, stdout: list.stdout });
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({ name: "web", scope: "project", transport: "http", path: join(sb.project, ".mcp.json") }),
      expect.objectContaining({ name: "files", scope: "global", transport: "stdio", server: `${FILESYSTEM} .` }),
    ]);
    expect((await zot("mcp", "list")).stdout).toMatch(/^files\s+global\s+enabled\s+stdio/m);
    expect(await zot("mcp", "remove", "web")).toMatchObject({ code: 1, stderr: expect.stringMatching(/declared in .*\.mcp\.json/) });
    expect(await zot("mcp", "remove", "plain")).toMatchObject({ code: 1, stderr: expect.stringMatching(/not an MCP server/) });
    expect(await zot("ext", "disable", "web")).toMatchObject({ code: 1, stderr: expect.stringMatching(/edit that file/) });
    expect(await zot("mcp", "remove", "files")).toMatchObject({ code: 0 });
    expect(existsSync(join(sb.globalRoot, "files"))).toBe(false);
    expect(existsSync(join(sb.project, ".mcp.json"))).toBe(true);
  });
});

describe("zot ext doctor, logs and disable with an MCP server", () => {
  it("doctor reports the server's name, version, tools, prompts and resources, and its log holds the server's stderr", async () => {
    mkdirSync(join(sb.project, "data"));
    await zot("mcp", "add", "files", "--", FILESYSTEM, join(sb.project, "data"));
    const json = await zot("ext", "doctor", "--json");
    expect(json.code).toBe(0);
    const [report] = JSON.parse(json.stdout).extensions;
    expect(report).toMatchObject({ name: "files", kind: "mcp", status: "ok",
      mcp: { transport: "stdio", server: expect.stringMatching(/filesystem/i), version: expect.stringMatching(/^\d/),
        tools: expect.arrayContaining(["read_text_file", "list_directory"]) } });
    const logs = await zot("ext", "logs", "files");
    expect(logs.stdout).toMatch(/\[zot\] .* starting files: \S*mcp-server-filesystem/);
    expect(logs.stdout).toMatch(/Secure MCP Filesystem Server running on stdio/i);
    const text = await zot("ext", "doctor");
    expect(text.stdout).toMatch(/server:\s+\S*filesystem\S* \d\S* \(MCP, stdio\)/i);
    expect(text.stdout).toMatch(/mcp tools:\s+.*read_text_file/);
    expect(text.stdout).toMatch(/command:\s+\S+mcp-server-filesystem /);
    // A server zot started is described as started, not as a bundle that runs nothing.
    expect(text.stdout).toMatch(/✓ files .*ready in \d+ ms/);
    expect(text.stdout).not.toContain("not spawned");
  });

  it("zot ext disable keeps an MCP server from loading", async () => {
    await zot("mcp", "add", "files", "--", FILESYSTEM, ".");
    expect(await zot("ext", "disable", "files")).toMatchObject({ code: 0 });
    expect(JSON.parse((await zot("mcp", "list", "--json")).stdout)).toEqual([expect.objectContaining({ name: "files", enabled: false })]);
    expect(JSON.parse((await zot("ext", "doctor", "--json")).stdout).extensions[0]).toMatchObject({ status: "disabled", running: false });
  });
});
