// `zot ext remove|enable|disable`: by manifest or folder name, across scopes, never ambiguous,
// and manifest edits that change only `enabled`.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runZot, writeExtension, ZOT, type Sandbox } from "./support/cli.ts";

let sb: Sandbox;
beforeEach(() => { sb = makeSandbox(); });
afterEach(() => sb.cleanup());

const zot = (...args: string[]) => runZot(["ext", ...args], { cwd: sb.project, env: sb.env });
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, "extension.json"), "utf8"));

describe("zot ext remove", () => {
  it("removes by manifest name and by folder name, including state inside", async () => {
    const todo = join(sb.globalRoot, "zot-todo");
    writeExtension(todo, { name: "todo" }, { "todos.json": "[1]" });
    const other = join(sb.projectRoot, "zot-other");
    writeExtension(other, { name: "other" });

    const [byName, byFolder] = await Promise.all([zot("remove", "todo", "--yes"), zot("remove", "zot-other", "-y")]);
    expect(byName.code).toBe(0);
    expect(byName.stdout).toContain(todo);
    expect(existsSync(todo)).toBe(false);
    expect(existsSync(sb.globalRoot)).toBe(true);
    expect(byFolder.code).toBe(0);
    expect(existsSync(other)).toBe(false);
    expect(readdirSync(sb.projectRoot)).toEqual([]);
  });

  it("refuses without --yes when stdin is not a terminal, and changes nothing", async () => {
    const dir = join(sb.globalRoot, "keep");
    writeExtension(dir, { name: "keep" });
    const r = await zot("remove", "keep");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^zot: .*--yes/);
    expect(existsSync(join(dir, "extension.json"))).toBe(true);
  });

  // util-linux `script` gives the CLI a real terminal, so the question is really asked.
  const hasScript = spawnSync("script", ["--version"]).status === 0;
  it.skipIf(!hasScript)("asks on a terminal, and removes only after yes", async () => {
    const kept = join(sb.globalRoot, "kept");
    const gone = join(sb.globalRoot, "gone");
    writeExtension(kept, { name: "kept" });
    writeExtension(gone, { name: "gone" });
    const answer = (name: string, reply: string) => new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn("script", ["-qec", `"${process.execPath}" "${ZOT}" ext remove ${name}`, "/dev/null"],
        { cwd: sb.project, env: sb.env, stdio: ["pipe", "pipe", "pipe"] });
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => { out += d; });
      child.on("close", (code) => resolve({ code, out }));
      child.stdin.end(`${reply}\n`);
    });
    const [no, yes] = await Promise.all([answer("kept", "n"), answer("gone", "y")]);
    expect(no.out).toContain("Remove kept (global");
    expect(no.code).toBe(1);
    expect(existsSync(kept)).toBe(true);
    expect(yes.code).toBe(0);
    expect(existsSync(gone)).toBe(false);
  });

  it("does not remove a folder without a manifest, and says when nothing matches", async () => {
    mkdirSync(join(sb.globalRoot, "leftover"), { recursive: true });
    writeFileSync(join(sb.globalRoot, "leftover", "state.json"), "{}");
    const r = await zot("remove", "leftover", "--yes");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^zot: no installed extension is named "leftover"/);
    expect(existsSync(join(sb.globalRoot, "leftover", "state.json"))).toBe(true);
  });

  it("removes an install whose manifest is broken, by its folder name", async () => {
    mkdirSync(join(sb.globalRoot, "broken"), { recursive: true });
    writeFileSync(join(sb.globalRoot, "broken", "extension.json"), "not json");
    expect((await zot("remove", "broken", "--yes")).code).toBe(0);
    expect(existsSync(join(sb.globalRoot, "broken"))).toBe(false);
  });
});

describe("ambiguous names", () => {
  it("lists every matching path and changes nothing (same name in project and global)", async () => {
    const projectCopy = join(sb.projectRoot, "weather");
    const globalCopy = join(sb.globalRoot, "weather");
    writeExtension(projectCopy, { name: "weather" });
    writeExtension(globalCopy, { name: "weather" });
    const before = readFileSync(join(globalCopy, "extension.json"), "utf8");
    for (const r of await Promise.all([zot("remove", "weather", "--yes"), zot("disable", "weather")])) {
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(projectCopy);
      expect(r.stderr).toContain(globalCopy);
    }
    expect(existsSync(projectCopy) && existsSync(globalCopy)).toBe(true);
    expect(readFileSync(join(globalCopy, "extension.json"), "utf8")).toBe(before);
    // A scope flag narrows the search to one install.
    expect((await zot("disable", "weather", "--global")).code).toBe(0);
    expect(manifestOf(globalCopy).enabled).toBe(false);
    expect(manifestOf(projectCopy).enabled).toBeUndefined();
  });

  it("treats a manifest name equal to another install's folder name as ambiguous", async () => {
    writeExtension(join(sb.globalRoot, "todo"), { name: "tasks" });
    writeExtension(join(sb.globalRoot, "zot-todo"), { name: "todo" });
    const r = await zot("enable", "todo");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(join(sb.globalRoot, "todo"));
    expect(r.stderr).toContain(join(sb.globalRoot, "zot-todo"));
    expect(manifestOf(join(sb.globalRoot, "todo")).enabled).toBeUndefined();
  });
});

describe("zot ext enable / disable", () => {
  it("flips only the enabled value of a hand-formatted manifest, by manifest name or folder name", async () => {
    const dir = join(sb.globalRoot, "zot-weather");
    mkdirSync(dir, { recursive: true });
    const original = '{\r\n\t"exec" :  "./w",\r\n\t"name":"weather",   "enabled" : true ,\r\n'
      + '\t"custom": {"enabled": true, "list": [1,2 , 3]},\r\n\t"description": "sunny \\"enabled\\": true"\r\n}\r\n';
    writeFileSync(join(dir, "extension.json"), original);
    chmodSync(join(dir, "extension.json"), 0o640);

    const off = await zot("disable", "weather");
    expect(off.code).toBe(0);
    expect(off.stdout).toContain("disabled");
    const disabled = readFileSync(join(dir, "extension.json"), "utf8");
    expect(disabled).toBe(original.replace('"enabled" : true ,', '"enabled" : false ,'));
    expect(statSync(join(dir, "extension.json")).mode & 0o777).toBe(0o640);
    expect(JSON.parse((await zot("list", "--json")).stdout)[0]).toMatchObject({ name: "weather", enabled: false });

    expect((await zot("enable", "zot-weather")).code).toBe(0);
    expect(readFileSync(join(dir, "extension.json"), "utf8")).toBe(original);
    expect(readdirSync(dir)).toEqual(["extension.json"]);

    const again = await zot("enable", "weather");
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("already enabled");
  });

  it("adds a missing enabled field in the file's own indentation", async () => {
    const dir = join(sb.projectRoot, "tabbed");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "extension.json"), '{\n    "name": "tabbed",\n    "exec": "./x",\n    "args": ["a"]\n}\n');
    const compact = join(sb.projectRoot, "compact");
    mkdirSync(compact, { recursive: true });
    writeFileSync(join(compact, "extension.json"), '{"name":"compact","exec":"./x"}');
    const results = await Promise.all([zot("disable", "tabbed"), zot("disable", "compact")]);
    expect(results.map((r) => r.code)).toEqual([0, 0]);
    expect(readFileSync(join(dir, "extension.json"), "utf8"))
      .toBe('{\n    "name": "tabbed",\n    "exec": "./x",\n    "args": ["a"],\n    "enabled": false\n}\n');

    expect(readFileSync(join(compact, "extension.json"), "utf8")).toBe('{"name":"compact","exec":"./x","enabled":false}');
  });

  it("leaves a manifest that is not valid JSON untouched", async () => {
    const dir = join(sb.globalRoot, "broken");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "extension.json"), "{ broken");
    const r = await zot("disable", "broken");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^zot: .*invalid JSON/);
    expect(readFileSync(join(dir, "extension.json"), "utf8")).toBe("{ broken");
  });

  it("says clearly when nothing matches", async () => {
    const r = await zot("enable", "ghost");
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('zot: no installed extension is named "ghost" (see `zot ext list`)\n');
  });
});
