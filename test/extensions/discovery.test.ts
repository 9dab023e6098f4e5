import { cpSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extensionLogPath } from "../../lib/paths.ts";
import { command, FIXTURES, sandbox, startHost, writeExtension, type Sandbox, type TestHost } from "./helpers.ts";

let sb: Sandbox;
let t: TestHost | undefined;
beforeEach(async () => void (sb = await sandbox()));
afterEach(() => sb.cleanup()); // also shuts down the hosts started in it

/** An extension whose /whoami displays where it was loaded from and its process cwd. */
function whoami(parent: string, folder: string, name: string, tag: string, manifest: Record<string, unknown> = {}) {
  return writeExtension(parent, folder, {
    name,
    register: [command("whoami")],
    on: { command_invoked: `ctx.send({type:"command_response",id:msg.id,action:"display",display:${JSON.stringify(tag)}+" "+process.cwd()})` },
  }, manifest);
}

async function display(name: string): Promise<string | undefined> {
  const response = await t!.host.invokeCommand(name, "");
  return response && "action" in response ? response.display : undefined;
}

describe("Layout & discovery", () => {
  it("loads project-local and global extensions", async () => {
    whoami(sb.projectDir, "p", "proj", "project");
    whoami(sb.globalDir, "g", "glob", "global");
    t = await startHost(sb);
    // Both register /whoami: the earlier-loaded (project) one owns it.
    expect(t.host.commands().map((c) => c.extension)).toEqual(["proj"]);
    expect(t.host.reports().map((r) => [r.name, r.scope, r.status])).toEqual([["proj", "project", "ok"], ["glob", "global", "ok"]]);
  });

  it("a project-local extension shadows a global one of the same manifest name", async () => {
    whoami(sb.projectDir, "folder-a", "same", "project");
    whoami(sb.globalDir, "folder-b", "same", "global");
    t = await startHost(sb);
    expect(await display("whoami")).toMatch(/^project /);
    const global = t.host.reports().find((r) => r.scope === "global")!;
    expect(global.status).toBe("shadowed");
    expect(global.shadowed_by).toBe(join(sb.projectDir, "folder-a"));
    expect(global.ready).toBeNull();
  });

  it("explicit --ext paths load first and win over discovered ones by name", async () => {
    whoami(sb.projectDir, "p", "same", "project");
    const explicit = whoami(sb.scratch, "work-in-progress", "same", "explicit");
    whoami(sb.globalDir, "other", "other", "other");
    t = await startHost(sb, { explicit: [explicit] });
    expect(await display("whoami")).toMatch(/^explicit /);
    expect(t.host.reports().map((r) => [r.scope, r.status])).toEqual([["explicit", "ok"], ["project", "shadowed"], ["global", "ok"]]);
  });

  it("relative --ext paths resolve against the project directory", async () => {
    whoami(sb.cwd, "local-ext", "local", "relative");
    t = await startHost(sb, { explicit: ["local-ext"] });
    expect(await display("whoami")).toMatch(/^relative /);
  });

  it("--no-ext skips discovery but still loads explicit paths", async () => {
    whoami(sb.projectDir, "p", "proj", "project");
    const explicit = whoami(sb.scratch, "e", "explicit-one", "explicit");
    t = await startHost(sb, { explicit: [explicit], discover: false });
    expect(t.host.reports().map((r) => r.name)).toEqual(["explicit-one"]);
  });

  it("disabled extensions are skipped but reported, and never spawned", async () => {
    whoami(sb.globalDir, "off", "off", "disabled", { enabled: false });
    t = await startHost(sb);
    expect(t.host.commands()).toEqual([]);
    const [report] = t.host.reports();
    expect(report).toMatchObject({ name: "off", status: "disabled", ready: null });
    expect(existsSync(extensionLogPath(sb.paths, "off"))).toBe(false);
  });

  it("an explicit path overrides enabled:false with a warning", async () => {
    const dir = whoami(sb.scratch, "off", "off", "explicit", { enabled: false });
    t = await startHost(sb, { explicit: [dir] });
    expect(await display("whoami")).toMatch(/^explicit /);
    expect(t.host.reports()[0]!.warnings.join("\n")).toMatch(/enabled is false/);
  });

  it("folders without extension.json and dot-folders are ignored", async () => {
    mkdirSync(join(sb.globalDir, "leftover-state"), { recursive: true });
    writeFileSync(join(sb.globalDir, "leftover-state", "todos.json"), "[]");
    whoami(sb.globalDir, ".installing-tmp", "hidden", "hidden");
    t = await startHost(sb);
    expect(t.host.reports()).toEqual([]);
  });

  it("theme-only and skill-only bundles are never spawned", async () => {
    const theme = join(sb.globalDir, "nice-theme");
    mkdirSync(theme);
    writeFileSync(join(theme, "extension.json"), JSON.stringify({ name: "nice-theme" }));
    writeFileSync(join(theme, "theme.json"), JSON.stringify({ name: "nice", colors: { heading: "#00ff00" } }));
    const skills = join(sb.globalDir, "some-skills");
    mkdirSync(join(skills, "skills"), { recursive: true });
    writeFileSync(join(skills, "extension.json"), JSON.stringify({ name: "some-skills", skills: ["skills"] }));
    t = await startHost(sb);
    expect(t.host.reports().map((r) => [r.name, r.kind, r.status, r.ready])).toEqual([
      ["nice-theme", "theme", "ok", null], ["some-skills", "skills", "ok", null]]);
    expect(t.host.reports()[0]!.themes).toEqual(["nice"]);
    expect(existsSync(sb.paths.logs)).toBe(false);
  });

  it("manifest skills of used extensions and bundles feed skill discovery; disabled and shadowed ones do not", async () => {
    const bundle = join(sb.globalDir, "skills-only");
    mkdirSync(bundle);
    writeFileSync(join(bundle, "extension.json"), JSON.stringify({ name: "skills-only", skills: ["skills"] }));
    const used = whoami(sb.projectDir, "used", "used", "x", { skills: ["a/SKILL.md"] });
    whoami(sb.globalDir, "used-copy", "used", "x", { skills: ["shadowed"] });
    whoami(sb.globalDir, "off", "off", "x", { enabled: false, skills: ["off"] });
    t = await startHost(sb);
    expect(t.host.skillInputs()).toEqual([{ dir: used, skills: ["a/SKILL.md"] }, { dir: bundle, skills: ["skills"] }]);
  });

  it("enabled:false disables skill-only and theme-only bundles too: their skills stay out of the prompt", async () => {
    const skills = join(sb.globalDir, "off-skills");
    mkdirSync(join(skills, "skills"), { recursive: true });
    writeFileSync(join(skills, "extension.json"), JSON.stringify({ name: "off-skills", skills: ["skills"], enabled: false }));
    const theme = join(sb.globalDir, "off-theme");
    mkdirSync(theme);
    writeFileSync(join(theme, "extension.json"), JSON.stringify({ name: "off-theme", enabled: false }));
    writeFileSync(join(theme, "theme.json"), "{}");
    t = await startHost(sb);
    expect(t.host.reports().map((r) => [r.name, r.kind, r.status])).toEqual([["off-skills", "skills", "disabled"], ["off-theme", "theme", "disabled"]]);
    expect(t.host.skillInputs()).toEqual([]);
  });

  it("an invalid manifest is an error that names the folder, and the others still load", async () => {
    const broken = join(sb.globalDir, "broken");
    mkdirSync(broken);
    writeFileSync(join(broken, "extension.json"), JSON.stringify({ name: "broken", exec: 42 }));
    const notJson = join(sb.globalDir, "not-json");
    mkdirSync(notJson);
    writeFileSync(join(notJson, "extension.json"), "{ nope");
    whoami(sb.globalDir, "fine", "fine", "fine");
    t = await startHost(sb);
    const reports = t.host.reports();
    expect(reports.find((r) => r.path === broken)).toMatchObject({ status: "error", errors: [expect.stringContaining(broken)] });
    expect(reports.find((r) => r.path === broken)!.errors[0]).toMatch(/exec/);
    expect(reports.find((r) => r.path === notJson)!.errors[0]).toMatch(/invalid JSON/);
    expect(t.of("ext_error").map((e) => e.message).join("\n")).toContain(broken);
    expect(await display("whoami")).toMatch(/^fine /);
  });

  it("an explicit path without a manifest is reported", async () => {
    const empty = join(sb.scratch, "empty");
    mkdirSync(empty);
    t = await startHost(sb, { explicit: [empty, join(sb.scratch, "missing")] });
    const reports = t.host.reports();
    expect(reports.map((r) => r.status)).toEqual(["error", "error"]);
    expect(reports[0]!.errors[0]).toContain(join(empty, "extension.json"));
    expect(reports[1]!.errors[0]).toMatch(/not a directory/);
  });

  it("relative exec resolves against the extension folder, bare names on PATH, and the process runs in its folder", async () => {
    const py = join(sb.globalDir, "hello-py");
    cpSync(join(FIXTURES, "hello-py"), py, { recursive: true });
    const node = join(sb.globalDir, "node-programmable");
    cpSync(join(FIXTURES, "node-programmable"), node, { recursive: true });
    t = await startHost(sb);
    expect(t.host.reports().map((r) => [r.name, r.status, r.ready])).toEqual([
      ["hello-py", "ok", "ready"], ["node-programmable", "ok", "ready"]]);
    expect(await t.host.invokeCommand("hi", "there")).toMatchObject({ action: "display", display: "hi there" });
  });
});
