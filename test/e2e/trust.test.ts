// Trust before code runs, through the real CLI: project-local extensions start only in a trusted
// project, installs show what an extension requests and ask, and a recorded grant goes stale when
// the manifest asks for more.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeExtension } from "../extensions/helpers.ts";
import { jsonLines, makeWorld, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A project-local extension (as in a fresh clone) that writes `started` when it runs. */
function cloneWithExtension(w: World, manifest: Record<string, unknown> = {}): { dir: string; started: string } {
  const started = join(w.home, "..", "started.pid");
  const dir = writeExtension(join(w.cwd, ".zot", "extensions"), "clone-ext", { name: "clone-ext", pidFile: started }, manifest);
  return { dir, started };
}

const trustFile = (w: World) => JSON.parse(readFileSync(join(w.home, "trust.json"), "utf8"));

describe("project-local extensions", () => {
  it("a fresh clone's .zot/extensions start nothing in json mode; a json event names `zot ext trust --project`; after it, they start", async () => {
    world = await makeWorld([{ text: "one" }, { text: "two" }]);
    const { started } = cloneWithExtension(world);
    const first = await world.run(["--mode", "json", "hi"]);
    expect(first.code).toBe(0);
    expect(existsSync(started)).toBe(false);
    const notes = jsonLines(first.stdout).filter((l) => l.type === "ext_notify");
    expect(notes).toEqual([expect.objectContaining({ extension: "clone-ext", level: "warn",
      message: expect.stringMatching(/project extension "clone-ext" is not started: this project has not been trusted; .*`zot ext trust --project`/) })]);

    const trusted = await world.run(["ext", "trust", "--project", "--yes"]);
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain("clone-ext 1.0.0 requests:\n  full access (no permissions declared)");
    expect(Object.keys(trustFile(world).projects)).toHaveLength(1);

    const second = await world.run(["--mode", "json", "hi"]);
    expect(second.code).toBe(0);
    expect(existsSync(started)).toBe(true);
    expect(jsonLines(second.stdout).filter((l) => l.type === "ext_notify")).toEqual([]);
  });

  it("a changed manifest asks again: the extension stays off until the project is trusted with it", async () => {
    world = await makeWorld([{ text: "one" }, { text: "two" }, { text: "three" }]);
    const { dir, started } = cloneWithExtension(world);
    expect((await world.run(["ext", "trust", "--project", "--yes"])).code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(dir, "extension.json"), "utf8"));
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ ...manifest, description: "now with more" }));
    const changed = await world.run(["-p", "hi"]);
    expect(changed.stdout).toBe("one\n");
    expect(changed.stderr).toMatch(/clone-ext.*its extension\.json changed since you trusted this project; .*zot ext trust --project/);
    expect(existsSync(started)).toBe(false);
    const list = await world.run(["ext", "list"]);
    expect(list.stdout).toMatch(/clone-ext\s+1\.0\.0\s+project\s+enabled, needs approval/);
    expect((await world.run(["ext", "trust", "--project", "--yes"])).code).toBe(0);
    expect((await world.run(["-p", "hi"])).stdout).toBe("two\n");
    expect(existsSync(started)).toBe(true);
  });

  it("trust pins the folder's content: an edited file asks again, naming what changed", async () => {
    world = await makeWorld([{ text: "one" }, { text: "two" }, { text: "three" }]);
    const { dir, started } = cloneWithExtension(world);
    writeFileSync(join(dir, "helper.js"), "export const x = 1;\n");
    expect((await world.run(["ext", "trust", "--project", "--yes"])).code).toBe(0);
    writeFileSync(join(dir, "ext.mjs"), `${readFileSync(join(dir, "ext.mjs"), "utf8")}\n// one more line\n`);
    rmSync(join(dir, "helper.js"));
    writeFileSync(join(dir, "payload.sh"), "#!/bin/sh\n");
    const changed = await world.run(["-p", "hi"]);
    expect(changed.stdout).toBe("one\n");
    expect(changed.stderr).toContain('project extension "clone-ext" is not started: its files changed since you trusted this project '
      + "(ext.mjs changed, payload.sh added, helper.js removed); review it and run `zot ext trust --project`");
    expect(existsSync(started)).toBe(false);
    expect((await world.run(["ext", "trust", "--project", "--yes"])).code).toBe(0);
    expect((await world.run(["-p", "hi"])).stdout).toBe("two\n");
    expect(existsSync(started)).toBe(true);
  });

  it("a project extension's state stays out of its folder: running it does not change what was trusted", async () => {
    world = await makeWorld([{ text: "one" }, { text: "two" }]);
    const dir = join(world.cwd, ".zot", "extensions", "py-state");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "helper.py"), "GREETING = 'hi'\n");
    writeFileSync(join(dir, "main.py"), `import json, os, sys
import helper
def emit(o): sys.stdout.write(json.dumps(o) + "\\n"); sys.stdout.flush()
emit({"type": "hello", "name": "py-state", "version": "1"})
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello_ack":
        open(os.path.join(msg["data_dir"], "state.json"), "w").write("{}")
        emit({"type": "ready"})
    elif msg["type"] == "shutdown":
        break
`);
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "py-state", exec: "/usr/bin/python3", args: ["main.py"] }));
    expect((await world.run(["ext", "trust", "--project", "--yes"])).code).toBe(0);
    for (const text of ["one", "two"]) {
      const r = await world.run(["-p", "hi"]);
      expect(r.stdout).toBe(`${text}\n`);
      expect(r.stderr).not.toContain("not started");
    }
    expect(existsSync(join(dir, "__pycache__"))).toBe(false);
    expect(existsSync(join(dir, "state.json"))).toBe(false);
    const projects = join(world.home, "extension-data", "projects");
    expect(readdirSync(projects).map((p) => existsSync(join(projects, p, "py-state", "state.json")))).toEqual([true]);
  });

  it("zot ext trust --project without a terminal refuses unless --yes, and records nothing", async () => {
    world = await makeWorld([]);
    cloneWithExtension(world);
    const refused = await world.run(["ext", "trust", "--project"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("there is no terminal to ask on; pass --yes");
    expect(existsSync(join(world.home, "trust.json"))).toBe(false);
  });

  it("--trust-project starts them for one run and records nothing; --ext paths always start", async () => {
    world = await makeWorld([{ text: "one" }, { text: "two" }]);
    const { dir, started } = cloneWithExtension(world);
    expect((await world.run(["-p", "--trust-project", "hi"])).code).toBe(0);
    expect(existsSync(started)).toBe(true);
    expect(existsSync(join(world.home, "trust.json"))).toBe(false);
    rmSync(started);
    expect((await world.run(["-p", "--no-ext", "-e", dir, "hi"])).code).toBe(0);
    expect(existsSync(started)).toBe(true);
  });

  it("the MCP servers of a project's .mcp.json pass the same gate: not started until the project is trusted", async () => {
    world = await makeWorld([{ text: "one" }]);
    const started = join(world.cwd, "..", "mcp-started");
    writeFileSync(join(world.cwd, ".mcp.json"), JSON.stringify({ mcpServers: { stranger: { command: "sh", args: ["-c", `touch ${started}`] } } }));
    const r = await world.run(["--mode", "json", "hi"]);
    expect(r.code).toBe(0);
    expect(existsSync(started)).toBe(false);
    expect(jsonLines(r.stdout).filter((l) => l.type === "ext_notify").map((l) => l.message)).toEqual([
      expect.stringMatching(/^project extension "stranger" is not started: this project has not been trusted; .*`zot ext trust --project`/)]);
  });

  it("zot ext trust --project --revoke withdraws the project's trust", async () => {
    world = await makeWorld([{ text: "one" }]);
    const { started } = cloneWithExtension(world);
    expect((await world.run(["ext", "trust", "--project", "--yes"])).code).toBe(0);
    const revoked = await world.run(["ext", "trust", "--project", "--revoke"]);
    expect(revoked.stdout).toContain("is no longer trusted");
    expect((await world.run(["-p", "hi"])).stderr).toContain("this project has not been trusted");
    expect(existsSync(started)).toBe(false);
  });
});

describe("installing and approving global extensions", () => {
  function source(w: World, permissions?: Record<string, unknown>): { src: string; started: string } {
    const started = join(w.home, "..", "global-started.pid");
    const src = writeExtension(join(w.home, "..", "src"), "notes", { name: "notes", pidFile: started },
      permissions ? { permissions } : {});
    return { src, started };
  }

  it("install shows the requested scopes and, without a terminal, refuses unless --yes", async () => {
    world = await makeWorld([]);
    const { src } = source(world, { tools: ["read"], events: ["agent_end"] });
    const refused = await world.run(["ext", "install", src]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("notes 1.0.0 requests:\n  tools: read\n  events: agent_end\n  intercept: none\n  ui: none\n");
    expect(refused.stderr).toContain("notes was not installed: zot asks before installing an extension, and there is no terminal to ask on; pass --yes");
    expect(existsSync(join(world.home, "extensions", "notes"))).toBe(false);

    const accepted = await world.run(["ext", "install", "--yes", src]);
    expect(accepted.code).toBe(0);
    expect(accepted.stderr).toContain("tools: read");
    expect(trustFile(world).extensions.notes).toMatchObject({ permissions: { tools: ["read"], events: ["agent_end"] },
      manifest_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it("a manifest that now asks for more needs approval (list, doctor) and does not start until zot ext trust NAME; --revoke withdraws it", async () => {
    world = await makeWorld([{ text: "one" }, { text: "two" }, { text: "three" }, { text: "four" }]);
    const { src, started } = source(world, { tools: ["read"] });
    expect((await world.run(["ext", "install", "--yes", src])).code).toBe(0);
    const installed = join(world.home, "extensions", "notes", "extension.json");
    const manifest = JSON.parse(readFileSync(installed, "utf8"));

    // Asking for the same (a new description) keeps the grant.
    writeFileSync(installed, JSON.stringify({ ...manifest, description: "same scopes" }));
    expect((await world.run(["-p", "hi"])).stdout).toBe("one\n");
    expect(existsSync(started)).toBe(true);
    rmSync(started);

    writeFileSync(installed, JSON.stringify({ ...manifest, permissions: { ...manifest.permissions, tools: ["read", "bash"] } }));
    const held = await world.run(["-p", "hi"]);
    expect(held.stdout).toBe("two\n");
    expect(held.stderr).toContain("needs approval: its extension.json now asks for more than you approved (tools); review it and run `zot ext trust notes`");
    expect(existsSync(started)).toBe(false);
    expect((await world.run(["ext", "list"])).stdout).toMatch(/notes\s+1\.0\.0\s+global\s+enabled, needs approval/);
    const doctor = await world.run(["ext", "doctor", "--json"]);
    expect(JSON.parse(doctor.stdout).extensions[0]).toMatchObject({ name: "notes", status: "needs_approval" });
    expect(existsSync(started)).toBe(false);

    const approved = await world.run(["ext", "trust", "notes", "--yes"]);
    expect(approved.stdout).toContain("notes 1.0.0 requests:\n  tools: read, bash");
    expect((await world.run(["-p", "hi"])).stdout).toBe("three\n");
    expect(existsSync(started)).toBe(true);
    rmSync(started);

    expect((await world.run(["ext", "trust", "notes", "--revoke"])).code).toBe(0);
    expect((await world.run(["-p", "hi"])).stderr).toContain("needs approval: its grant was revoked");
    expect(existsSync(started)).toBe(false);
  });

  it("a global extension copied in by hand starts as before (no grant to go stale)", async () => {
    world = await makeWorld([{ text: "one" }]);
    mkdirSync(join(world.home, "extensions"), { recursive: true });
    const started = join(world.home, "..", "hand.pid");
    writeExtension(join(world.home, "extensions"), "hand", { name: "hand", pidFile: started }, { permissions: { tools: "*" } });
    expect((await world.run(["-p", "hi"])).stdout).toBe("one\n");
    expect(existsSync(started)).toBe(true);
  });
});
