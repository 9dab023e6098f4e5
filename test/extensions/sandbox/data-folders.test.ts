// One extension name maps to one data folder and one log, and no name maps into another's: a
// global extension named `projects` does not get every project extension's data, and `my ext`
// and `my_ext` keep apart. Real bubblewrap, real sandboxed Node extensions.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extensionFileName, extensionLogPath } from "../../../lib/paths.ts";
import { extensionDataDir } from "../../../lib/extensions/runtime/sandbox/for-candidate.ts";
import { sandbox, startHost, type Sandbox } from "../helpers.ts";
import { probe, probeExtension } from "../probe-extension.ts";

let sb: Sandbox;
beforeEach(async () => void (sb = await sandbox()));
afterEach(async () => sb.cleanup());

const globalData = (name: string) => extensionDataDir(sb.paths, { name, dir: join(sb.globalDir, name), scope: "global" }, sb.cwd, true);
const CONFINED = { permissions: { tools: ["probe"] } };

describe("extension data folders and logs", () => {
  it("a sandboxed global extension named projects cannot read or write the project extensions' data", async () => {
    const projectData = extensionDataDir(sb.paths, { name: "notes", dir: join(sb.projectDir, "notes"), scope: "project" }, sb.cwd, true);
    mkdirSync(projectData, { recursive: true });
    writeFileSync(join(projectData, "secret.txt"), "project notes");
    probeExtension(sb, CONFINED, "projects");
    const t = await startHost(sb);
    expect(t.host.reports()[0]!.errors).toEqual([]);
    expect((await probe(t, sb, { action: "read", path: join(projectData, "secret.txt") })).isError).toBe(true);
    expect((await probe(t, sb, { action: "write", path: join(projectData, "planted.txt") })).isError).toBe(true);
    // Its own data folder is still writable.
    expect(await probe(t, sb, { action: "write", path: join(globalData("projects"), "mine.txt") })).toEqual({ text: "wrote", isError: false });
    expect(globalData("projects")).not.toBe(join(sb.paths.home, "extension-data", "projects"));
    expect(globalData("Projects")).not.toBe(join(sb.paths.home, "extension-data", "Projects"));
  });

  it("my ext and my_ext have a data folder and a log each: one cannot read what the other stored", async () => {
    probeExtension(sb, CONFINED, "my ext");
    const first = await startHost(sb);
    expect(await probe(first, sb, { action: "write", path: join(globalData("my ext"), "state.txt"), text: "first's" })).toEqual({ text: "wrote", isError: false });
    await first.host.shutdown();
    rmSync(join(sb.globalDir, "my ext"), { recursive: true });

    probeExtension(sb, CONFINED, "my_ext");
    const second = await startHost(sb);
    expect((await probe(second, sb, { action: "read", path: join(globalData("my ext"), "state.txt") })).isError).toBe(true);
    await second.host.shutdown();

    expect(globalData("my ext")).not.toBe(globalData("my_ext"));
    expect(extensionLogPath(sb.paths, "my ext")).not.toBe(extensionLogPath(sb.paths, "my_ext"));
    expect(readFileSync(extensionLogPath(sb.paths, "my_ext"), "utf8")).not.toContain("programmable extension my ext starting");
  });

  it("a name becomes a file name one to one", () => {
    const names = ["my ext", "my_ext", "my%20ext", "my%ext", "café", "cafe", "a:b", "a_b", "x*y"];
    const files = names.map(extensionFileName);
    expect(new Set(files).size).toBe(names.length);
    expect(files.slice(0, 2)).toEqual(["my%20ext", "my_ext"]);
    for (const file of files) expect(file).toMatch(/^[A-Za-z0-9._%-]+$/);
  });
});
