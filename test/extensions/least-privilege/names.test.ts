// Escape 1: a name is a folder, a log file and a key of config.json and trust.json, so every way
// a name comes in refuses `.`, `..`, separators, control characters and names that differ from
// a claimed one only by case. The attack: a manifest named `..` whose data folder
// `extension-data/..` would be $ZOT_HOME itself.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extensionNameProblem } from "../../../lib/extensions/catalog/names.ts";
import { readMcpJson } from "../../../lib/extensions/catalog/dot-mcp-json.ts";
import { recordedTrust } from "../../../lib/extensions/catalog/trust/host-trust.ts";
import { sandbox, startHost, writeExtension, type Sandbox } from "../helpers.ts";

let sb: Sandbox;
beforeEach(async () => void (sb = await sandbox()));
afterEach(() => sb.cleanup());

describe("extension names", () => {
  it.each([
    [".", /must not be "\."/], ["..", /must not be "\.\."/], [".hidden", /must not start with "\."/], ["a/b", /slashes/], ["a\\b", /slashes/],
    ["\u001b[2Jguard", /control or invisible/], ["tab\there", /control or invisible/], ["bidi\u202eevil", /control or invisible/],
    ["nul\u0000", /control or invisible/], ["x".repeat(101), /at most 100/],
  ])("refuses %j", (name, problem) => {
    expect(extensionNameProblem(name)).toMatch(problem);
  });

  it("accepts ordinary names", () => {
    for (const name of ["guard", "hello-py", "my.ext_2", "Ünïcode"]) expect(extensionNameProblem(name)).toBeUndefined();
  });

  it("a hand-placed global extension named .. is refused by discovery and never starts", async () => {
    writeExtension(sb.globalDir, "innocent", { name: "..", register: [] }, { permissions: { network: "none" } });
    const t = await startHost(sb);
    const [report] = t.host.reports();
    expect(report).toMatchObject({ status: "error", running: false });
    expect(report!.errors.join("\n")).toMatch(/name must not be "\.\."/);
    expect(existsSync(join(sb.paths.home, "extension-data"))).toBe(false);
    expect(existsSync(sb.paths.logs)).toBe(false);
  });

  it("a trusted project extension named .. and an --ext folder named .. are refused the same way", async () => {
    writeExtension(sb.projectDir, "dots", { name: ".." });
    const explicit = writeExtension(sb.scratch, "explicit", { name: ".." });
    const t = await startHost(sb, { explicit: [explicit], trust: recordedTrust(sb.paths, { trustProject: true }) });
    expect(t.host.reports().map((r) => [r.scope, r.status])).toEqual([["explicit", "error"], ["project", "error"]]);
  });

  it("a .mcp.json server named .. or with an escape sequence is an error entry", async () => {
    writeFileSync(join(sb.cwd, ".mcp.json"), JSON.stringify({ mcpServers: { "..": { command: "true" }, "\u001b]0;x\u0007": { command: "true" } } }));
    const entries = await readMcpJson(sb.cwd);
    expect(entries.map((e) => e.error)).toEqual([expect.stringMatching(/name must not be "\.\."/), expect.stringMatching(/control or invisible/)]);
  });

  it("a name that differs from a claimed one only by case is refused, naming both", async () => {
    writeExtension(sb.globalDir, "a", { name: "guard" });
    writeExtension(sb.globalDir, "b", { name: "Guard" });
    const t = await startHost(sb);
    const reports = t.host.reports();
    expect(reports.map((r) => [r.name, r.status])).toEqual([["guard", "ok"], ["Guard", "error"]]);
    expect(reports[1]!.errors[0]).toMatch(/name "Guard" differs only by case from "guard" in .*\/a; rename one of them/);
  });

  it("a disabled copy does not claim its name, so a differently cased later one is not refused for it", async () => {
    mkdirSync(sb.globalDir, { recursive: true });
    writeExtension(sb.globalDir, "a", { name: "tool" }, { enabled: false });
    writeExtension(sb.globalDir, "b", { name: "Tool" });
    const t = await startHost(sb);
    expect(t.host.reports().map((r) => [r.name, r.status])).toEqual([["tool", "disabled"], ["Tool", "ok"]]);
    expect(readdirSync(sb.paths.logs)).toEqual(["ext-Tool.log"]);
  });
});
