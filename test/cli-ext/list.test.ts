// `zot ext list`: project and global installs, shadowing, broken manifests, stable order.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runZot, writeExtension, type Sandbox } from "./support/cli.ts";

let sb: Sandbox;
beforeEach(() => { sb = makeSandbox(); });
afterEach(() => sb.cleanup());

const zot = (...args: string[]) => runZot(["ext", ...args], { cwd: sb.project, env: sb.env });

describe("zot ext list", () => {
  it("says so, with both folders, when nothing is installed (and --json prints [])", async () => {
    const text = await zot("list");
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("No extensions installed");
    expect(text.stdout).toContain(sb.projectRoot);
    expect(text.stdout).toContain(sb.globalRoot);
    const json = await zot("list", "--json");
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([]);
  });

  it("lists project installs first and sorts by name; a project copy waiting for trust shadows no global one", async () => {
    writeExtension(join(sb.globalRoot, "weather"), { name: "weather", version: "1.0.0", language: "go", description: "global copy" });
    writeExtension(join(sb.globalRoot, "b-folder"), { name: "alpha", enabled: false });
    writeExtension(join(sb.globalRoot, "zeta"), { name: "zeta" });
    writeExtension(join(sb.projectRoot, "zot-weather"), { name: "weather", version: "2.0.0", description: "project copy" });
    writeExtension(join(sb.projectRoot, "todo"), { name: "todo", language: "python" });
    mkdirSync(join(sb.globalRoot, "state-only-leftover"), { recursive: true });
    writeFileSync(join(sb.globalRoot, "state-only-leftover", "todos.json"), "[]");
    writeFileSync(join(sb.globalRoot, "stray-file.txt"), "");

    const { code, stdout } = await zot("list", "--json");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([
      { name: "todo", version: null, scope: "project", enabled: true, language: "python", description: null,
        path: join(sb.projectRoot, "todo"), shadowed: false, full_access: true, permissions: null, installed_from: null,
        needs_approval: expect.stringContaining("this project has not been trusted") },
      { name: "weather", version: "2.0.0", scope: "project", enabled: true, language: null, description: "project copy",
        path: join(sb.projectRoot, "zot-weather"), shadowed: false, full_access: true, permissions: null, installed_from: null,
        needs_approval: expect.stringContaining("zot ext trust --project") },
      { name: "alpha", version: null, scope: "global", enabled: false, language: null, description: null,
        path: join(sb.globalRoot, "b-folder"), shadowed: false, full_access: true, permissions: null, installed_from: null },
      { name: "weather", version: "1.0.0", scope: "global", enabled: true, language: "go", description: "global copy",
        path: join(sb.globalRoot, "weather"), shadowed: false, full_access: true, permissions: null, installed_from: null },
      { name: "zeta", version: null, scope: "global", enabled: true, language: null, description: null,
        path: join(sb.globalRoot, "zeta"), shadowed: false, full_access: true, permissions: null, installed_from: null },
    ]);

    const table = await zot("list");
    const lines = table.stdout.split("\n");
    expect(lines[0]).toMatch(/^NAME\s+VERSION\s+SCOPE\s+STATE\s+LANGUAGE\s+ACCESS\s+FOLDER\s+SOURCE\s+DESCRIPTION$/);
    const weatherGlobal = lines.find((l) => l.includes(join(sb.globalRoot, "weather")));
    expect(weatherGlobal).toMatch(/^weather\s+1\.0\.0\s+global\s+enabled\s+go/);
    expect(lines.find((l) => l.startsWith("alpha"))).toMatch(/disabled/);
    expect(lines.find((l) => l.startsWith("todo"))).toMatch(/enabled, needs approval/);
    expect(table.stdout).not.toContain("state-only-leftover");
  });

  it("fits COLUMNS (80 here): the widest columns give way, cut with an ellipsis; without COLUMNS or a terminal nothing is cut", async () => {
    writeExtension(join(sb.globalRoot, "weather"), { name: "weather", version: "1.0.0", description: "a description long enough to need cutting at sixty columns" });
    const narrow = await runZot(["ext", "list"], { cwd: sb.project, env: { ...sb.env, COLUMNS: "80" } });
    const rows = narrow.stdout.split("\n\n")[0]!.split("\n");
    expect(rows[0]).toMatch(/^NAME +VERS/);
    for (const row of rows) expect([...row].length).toBeLessThanOrEqual(80);
    expect(narrow.stdout).toContain("…");
    const piped = await zot("list");
    expect(piped.stdout).toContain("a description long enough to need cutting at sixty columns");
  });

  it("shows a broken manifest as an error row instead of failing", async () => {
    writeExtension(join(sb.globalRoot, "good"), { name: "good" });
    mkdirSync(join(sb.globalRoot, "broken-json"), { recursive: true });
    writeFileSync(join(sb.globalRoot, "broken-json", "extension.json"), "{ nope");
    writeExtension(join(sb.globalRoot, "no-exec"), { name: "no-exec", exec: undefined, enabled: false });

    const { code, stdout } = await zot("list", "--json");
    expect(code).toBe(0);
    const rows = JSON.parse(stdout) as Array<Record<string, unknown>>;
    expect(rows.map((r) => r.name)).toEqual(["broken-json", "good", "no-exec"]);
    expect(rows[0]).toMatchObject({ scope: "global", path: join(sb.globalRoot, "broken-json"), shadowed: false });
    expect(rows[0].error).toMatch(/invalid JSON/);
    expect(rows[1].error).toBeUndefined();
    expect(rows[2]).toMatchObject({ enabled: false });
    expect(rows[2].error).toMatch(/exec is required/);

    const table = await zot("list");
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/broken-json\s+-\s+global\s+error\s+-\s+-\s+\S+\s+-\s+error: .*invalid JSON/);
  });

  it("marks a manifest without permissions as full access and shows declared ones as they are written", async () => {
    const permissions = { tools: ["read"], events: ["turn_end"], ui: ["notes"] };
    writeExtension(join(sb.globalRoot, "scoped"), { name: "scoped", permissions, on_failure: { tool_call: "block" } });
    writeExtension(join(sb.globalRoot, "wide"), { name: "wide" });
    const rows = JSON.parse((await zot("list", "--json")).stdout) as Array<Record<string, unknown>>;
    expect(rows.find((r) => r.name === "scoped")).toMatchObject({ full_access: false, permissions, on_failure: { tool_call: "block" } });
    expect(rows.find((r) => r.name === "wide")).toMatchObject({ full_access: true, permissions: null });
    expect(rows.find((r) => r.name === "wide")).not.toHaveProperty("on_failure");
    const table = (await zot("list")).stdout;
    expect(table.split("\n").find((l) => l.startsWith("scoped"))).toMatch(/^scoped\s+-\s+global\s+enabled\s+-\s+declared\s/);
    expect(table.split("\n").find((l) => l.startsWith("wide"))).toMatch(/^wide\s+-\s+global\s+enabled\s+-\s+full access\s/);
    expect(table).toContain("full access: the manifest declares no permissions");
  });

  it("reads the project from --cwd", async () => {
    const other = join(sb.base, "other-project");
    writeExtension(join(other, ".zot", "extensions", "there"), { name: "there" });
    const rows = JSON.parse((await zot("list", "--json", "--cwd", other)).stdout);
    expect(rows).toEqual([expect.objectContaining({ name: "there", scope: "project" })]);
    const missing = await zot("list", "--cwd", join(sb.base, "nowhere"));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^zot: --cwd .*no such folder/);
  });
});

describe("zot ext usage errors", () => {
  it("rejects unknown flags and stray arguments with exit 2 and nothing on stdout", async () => {
    const cases = [["list", "--bogus"], ["list", "extra"], ["remove"], ["logs", "x", "-n"], ["install", "a", "--force=yes"],
      ["enable", "x", "--project", "--global"], ["frobnicate"], []];
    const results = await Promise.all(cases.map((args) => zot(...args)));
    for (const [i, r] of results.entries()) {
      const args = cases[i];
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout, args.join(" ")).toBe("");
      expect(r.stderr, args.join(" ")).toMatch(/^zot: /);
    }
  });

  it("prints help on stdout with exit 0", async () => {
    const all = await zot("--help");
    expect(all.code).toBe(0);
    for (const cmd of ["list", "install", "remove", "enable", "disable", "logs", "new"]) expect(all.stdout).toContain(cmd);
    const one = await zot("install", "--help");
    expect(one.code).toBe(0);
    expect(one.stdout).toContain("--force");
    expect(one.stdout).not.toContain("\u001b[");
  });
});
