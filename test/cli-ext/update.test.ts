// `zot ext update`: re-installs from the recorded source (real local git repositories and
// folders), keeps the enabled state and the extension's data, and never loses the old copy.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runZot, writeExtension, type Sandbox } from "./support/cli.ts";
import { commit, git } from "./support/git.ts";

let sb: Sandbox;
let repo: string;

const manifest = (version: string, extra: Record<string, unknown> = {}) =>
  `${JSON.stringify({ name: "notes", version, exec: "./run.sh", ...extra }, null, 2)}\n`;
const zot = (...args: string[]) => runZot(["ext", ...args], { cwd: sb.project, env: sb.env });
const installed = () => join(sb.globalRoot, "notes");
const installedManifest = () => JSON.parse(readFileSync(join(installed(), "extension.json"), "utf8"));

beforeEach(() => {
  sb = makeSandbox();
  repo = join(sb.base, "repos", "notes");
  mkdirSync(repo, { recursive: true });
  commit(repo, { "extension.json": manifest("1.0.0"), "run.sh": "#!/bin/sh\n", "old.txt": "v1" }, sb.env);
});
afterEach(() => sb.cleanup());

async function installFromRepo(ref = ""): Promise<string> {
  const url = `${pathToFileURL(repo).href}${ref}`;
  const r = await zot("install", "--yes", url);
  expect(r.code, r.stderr).toBe(0);
  return url;
}

describe("zot ext update", () => {
  it("a new commit in the git repository it came from replaces the install, keeping it disabled and keeping its data", async () => {
    await installFromRepo();
    expect((await zot("disable", "notes")).code).toBe(0);
    writeFileSync(join(installed(), "todos.json"), '["keep me"]');
    git(repo, ["rm", "-q", "old.txt"], sb.env);
    commit(repo, { "extension.json": manifest("1.1.0"), "new.txt": "v2" }, sb.env);

    const r = await zot("update", "notes");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("Updated notes 1.0.0 → 1.1.0 (global)");
    expect(r.stdout).toContain("it stays disabled");
    expect(installedManifest()).toMatchObject({ version: "1.1.0", enabled: false });
    expect(readFileSync(join(installed(), "todos.json"), "utf8")).toBe('["keep me"]');
    expect(existsSync(join(installed(), "new.txt"))).toBe(true);
    expect(existsSync(join(installed(), "old.txt"))).toBe(false); // shipped by v1, dropped by v2: not data
    expect(readdirSync(sb.globalRoot)).toEqual(["notes"]); // no staging or replaced folder left
  });

  it("an update that fetches nothing new says the extension is up to date", async () => {
    await installFromRepo();
    writeFileSync(join(installed(), "todos.json"), '["mine"]');
    const r = await zot("update", "notes");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^notes 1\.0\.0 \(global\) is up to date with .*: nothing changed\n$/);
    expect(readFileSync(join(installed(), "todos.json"), "utf8")).toBe('["mine"]');
  });

  it("an update whose source fails leaves the old folder exactly as it was", async () => {
    await installFromRepo();
    writeFileSync(join(installed(), "todos.json"), "[]");
    const before = readdirSync(installed()).sort();
    renameSync(repo, `${repo}-moved`);

    const r = await zot("update", "notes");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^zot: notes: git clone of .* failed/m);
    expect(r.stderr).toContain("the installed copy is unchanged");
    expect(readdirSync(installed()).sort()).toEqual(before);
    expect(installedManifest().version).toBe("1.0.0");
    expect(readdirSync(sb.globalRoot)).toEqual(["notes"]);
  });

  it("zot ext list shows the source it was installed from, in the table and in --json", async () => {
    const url = await installFromRepo("#main");
    writeExtension(join(sb.globalRoot, "by-hand"), { name: "by-hand" });
    const rows = JSON.parse((await zot("list", "--json")).stdout) as Array<Record<string, unknown>>;
    expect(rows.find((r) => r.name === "notes")).toMatchObject({ installed_from: url });
    expect(rows.find((r) => r.name === "by-hand")).toMatchObject({ installed_from: null });
    const table = (await zot("list")).stdout.split("\n");
    expect(table[0]).toMatch(/\bFOLDER\s+SOURCE\s+DESCRIPTION$/);
    expect(table.find((l) => l.startsWith("notes"))).toContain(url);
  });

  it("an update asking for other permissions is refused without a terminal unless --yes, and the old copy stays", async () => {
    await installFromRepo();
    commit(repo, { "extension.json": manifest("2.0.0", { permissions: { tools: ["read"] } }) }, sb.env);

    const refused = await zot("update", "notes");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("notes 2.0.0 requests:");
    expect(refused.stderr).toContain("notes was not updated: zot asks before updating an extension, and there is no terminal to ask on");
    expect(installedManifest().version).toBe("1.0.0");

    const accepted = await zot("update", "notes", "--yes");
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(installedManifest().version).toBe("2.0.0");
    const trust = JSON.parse(readFileSync(join(sb.home, "trust.json"), "utf8"));
    expect(trust.extensions.notes.permissions).toEqual({ tools: ["read"] });
  });

  it("an update with the permissions already approved needs no question", async () => {
    await installFromRepo();
    commit(repo, { "extension.json": manifest("1.0.1") }, sb.env);
    const r = await zot("update", "notes");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("requests:");
    expect(installedManifest().version).toBe("1.0.1");
  });

  it("an update whose only change is the #! line of what it starts asks again: refused without a terminal, and the old copy stays", async () => {
    await installFromRepo();
    commit(repo, { "run.sh": "#!/usr/bin/env -S --uns /root/.ssh/id_rsa /bin/sh\n" }, sb.env);
    const refused = await zot("update", "notes");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("what it starts changed (./run.sh (#!/bin/sh) → ./run.sh (#!/usr/bin/env -S --uns /root/.ssh/id_rsa /bin/sh))");
    expect(readFileSync(join(installed(), "run.sh"), "utf8")).toBe("#!/bin/sh\n");
    const accepted = await zot("update", "notes", "--yes");
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(readFileSync(join(installed(), "run.sh"), "utf8")).toContain("--uns");
  });

  it("without a name it updates every extension with a recorded source (a folder source too) and skips the others", async () => {
    await installFromRepo();
    const folder = join(sb.base, "src", "local");
    writeExtension(folder, { name: "local", version: "1.0.0" });
    expect((await zot("install", "--yes", folder)).code).toBe(0);
    writeExtension(join(sb.globalRoot, "by-hand"), { name: "by-hand", version: "0.1.0" });
    commit(repo, { "extension.json": manifest("1.2.0") }, sb.env);
    writeExtension(folder, { name: "local", version: "1.1.0" });

    const r = await zot("update");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("Updated notes 1.0.0 → 1.2.0");
    expect(r.stdout).toContain(`Updated local 1.0.0 → 1.1.0 (global) from ${folder}`);
    expect(r.stdout).not.toContain("by-hand");
    expect(JSON.parse(readFileSync(join(sb.globalRoot, "local", "extension.json"), "utf8")).version).toBe("1.1.0");

    const named = await zot("update", "by-hand");
    expect(named.code).toBe(1);
    expect(named.stderr).toContain("by-hand has no recorded source");
  });

  it("a source that now holds another extension is refused", async () => {
    await installFromRepo();
    commit(repo, { "extension.json": `${JSON.stringify({ name: "other", exec: "./run.sh" })}\n` }, sb.env);
    const r = await zot("update", "notes");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('now holds the extension "other", not "notes"');
    expect(installedManifest().name).toBe("notes");
  });
});
