// `zot ext new`: every template scaffolds an extension that passes `zot ext doctor` and really
// speaks the protocol (the ts one under the repo's bun, the js one under Node 20 on the vendored
// TypeScript SDK, the python one on zot's Python SDK).
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { delimiter, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { extensionEnv } from "../../lib/extensions/runtime/sdk-env.ts";
import { TS_SDK_BUNDLE } from "../../lib/extensions/authoring/templates/ts-sdk.generated.ts";
import { makeSandbox, REPO_ROOT, runZot, type Sandbox } from "./support/cli.ts";
import { spawnExtension, type Driven, type Frame } from "./support/driver.ts";

const BIN = join(REPO_ROOT, "node_modules", ".bin");

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox();
  // bun for the ts template, as a user with bun installed has it.
  sb.env.PATH = `${BIN}${delimiter}${process.env.PATH ?? ""}`;
  vi.stubEnv("PATH", sb.env.PATH);
  // What the host gives every extension it spawns: zot's sdk/python on PYTHONPATH.
  vi.stubEnv("PYTHONPATH", extensionEnv({}).PYTHONPATH);
});
afterEach(() => {
  vi.unstubAllEnvs();
  sb.cleanup();
});

const zot = (...args: string[]) => runZot(["ext", ...args], { cwd: sb.project, env: sb.env });

/** Answers hello with hello_ack and returns the frames up to and including ready. */
async function handshake(ext: Driven, dir: string, name: string, cwd: string): Promise<Frame[]> {
  expect(await ext.next()).toMatchObject({ type: "hello", name });
  ext.send({ type: "hello_ack", protocol_version: 1, zot_version: "0.1.0", provider: "anthropic",
    model: "m", cwd, extension_dir: dir, data_dir: dir, capabilities: ["call_tool"] });
  const frames: Frame[] = [];
  for (let frame = await ext.next(); ; frame = await ext.next()) {
    frames.push(frame);
    if (frame.type === "ready") return frames;
  }
}

interface Expected {
  language: string;
  /** SDK templates register a word-count tool too. */
  tool: boolean;
  /** The manifest's exec and args. */
  exec: string;
  args?: string[];
}

const TEMPLATES: Record<string, Expected> = {
  ts: { language: "typescript", tool: true, exec: "./run.sh" },
  js: { language: "javascript", tool: true, exec: "node", args: ["main.mjs"] },
  python: { language: "python", tool: true, exec: "./main.py" },
  sh: { language: "sh", tool: false, exec: "./main.sh" },
};

describe("zot ext new", () => {
  for (const [lang, expected] of Object.entries(TEMPLATES)) {
    it(`the ${lang} template passes doctor and answers hello → registrations → ready, a command and shutdown`, async () => {
      const name = `Demo-${lang}`;
      const command = name.toLowerCase();
      const tool = `demo_${lang}_word_count`;
      const made = await zot("new", name, "--lang", lang);
      expect(made.stderr).toBe("");
      expect(made.code).toBe(0);
      const dir = join(sb.globalRoot, name);
      expect(made.stdout).toContain(dir);
      expect(made.stdout).toContain(`zot --ext ${dir}`);
      expect(made.stdout).toContain("zot ext doctor");
      const readme = readFileSync(join(dir, "README.md"), "utf8");
      expect(readme).toContain(`/${command}`);
      expect(readme).toContain("## Permissions");
      expect(readme).toContain(`zot ext logs ${name}`);
      const manifest = JSON.parse(readFileSync(join(dir, "extension.json"), "utf8"));
      expect(manifest).toMatchObject({ name, enabled: true, language: expected.language, exec: expected.exec });
      expect(manifest.args).toEqual(expected.args);
      // A path is run directly (so executable); a bare name (node) runs files named in args.
      if (expected.exec.startsWith("./")) expect(statSync(join(dir, manifest.exec)).mode & 0o111).not.toBe(0);
      for (const file of expected.args ?? []) expect(statSync(join(dir, file)).isFile()).toBe(true);

      // The real startup path, right after scaffolding.
      const doctor = await zot("doctor", "--json");
      expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0);
      const report = JSON.parse(doctor.stdout);
      expect(report.ok).toBe(true);
      expect(report.extensions).toHaveLength(1);
      expect(report.extensions[0]).toMatchObject({ name, status: "ok", ready: "ready", errors: [], commands: [command] });
      expect(report.extensions[0].tools.map((t: { name: string }) => t.name)).toEqual(expected.tool ? [tool] : []);

      const ext = spawnExtension(dir);
      try {
        const registered = await handshake(ext, dir, name, sb.project);
        expect(registered).toContainEqual(expect.objectContaining({ type: "register_command", name: command }));
        if (expected.tool) {
          expect(readme).toContain(tool);
          expect(registered).toContainEqual(expect.objectContaining({ type: "register_tool", name: tool }));
          ext.send({ type: "tool_call", id: "t-1", name: tool, args: { text: "to be or\nnot to be\n" } });
          expect(await ext.next()).toMatchObject({
            type: "tool_result", id: "t-1", content: [{ type: "text", text: "6 words, 2 lines, 19 characters" }],
          });
          ext.send({ type: "tool_call", id: "t-2", name: tool, args: { text: 42 } });
          expect(await ext.next()).toMatchObject({ type: "tool_result", id: "t-2", is_error: true });
        }
        ext.send({ type: "event", event: "turn_start", data: { nested: { type: "x", id: "y" } } });
        ext.send({ type: "command_invoked", id: `call-"7"-${lang}`, name: command, args: "berlin" });
        const response = await ext.next();
        expect(response).toMatchObject({ type: "command_response", id: `call-"7"-${lang}`, action: "display" });
        expect(response.display).toContain(name);
        ext.send({ type: "shutdown" });
        expect(await ext.next()).toEqual({ type: "shutdown_ack" });
        expect(await ext.exited).toBe(0);
      } finally {
        ext.child.kill("SIGKILL");
      }
    });
  }

  it("js: runs on Node alone (no bun, deno or executable bit) from the vendored SDK, and doctor agrees", async () => {
    expect((await zot("new", "plain", "--lang", "js")).code).toBe(0);
    const dir = join(sb.globalRoot, "plain");
    expect(readFileSync(join(dir, "zot-sdk.mjs"), "utf8").endsWith(TS_SDK_BUNDLE)).toBe(true);
    expect(readFileSync(join(dir, "main.mjs"), "utf8")).toContain('from "./zot-sdk.mjs"');
    expect(statSync(join(dir, "main.mjs")).mode & 0o111).toBe(0);

    // A PATH holding only this Node (20 in this repo): nothing can run TypeScript.
    const bin = join(sb.base, "only-node");
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, "node"));
    const doctor = await runZot(["ext", "doctor", "--json"], { cwd: sb.project, env: { ...sb.env, PATH: bin } });
    expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0);
    expect(JSON.parse(doctor.stdout).extensions[0]).toMatchObject({
      name: "plain", status: "ok", ready: "ready", commands: ["plain"], tools: [expect.objectContaining({ name: "plain_word_count" })],
    });

    vi.stubEnv("PATH", bin);
    const ext = spawnExtension(dir);
    try {
      await handshake(ext, dir, "plain", sb.project);
      ext.send({ type: "tool_call", id: "t-1", name: "plain_word_count", args: { text: "" } });
      expect(await ext.next()).toMatchObject({ type: "tool_result", id: "t-1", content: [{ type: "text", text: "0 words, 0 lines, 0 characters" }] });
      ext.send({ type: "command_invoked", id: "c-1", name: "plain", args: "" });
      expect(await ext.next()).toEqual({ type: "command_response", id: "c-1", action: "display", display: "Hello from plain!" });
      ext.send({ type: "shutdown" });
      expect(await ext.next()).toEqual({ type: "shutdown_ack" });
      expect(await ext.exited).toBe(0);
    } finally {
      ext.child.kill("SIGKILL");
    }
  });

  it("python: without zot_ext it exits 1 saying where to get it; a copy beside main.py is enough", async () => {
    expect((await zot("new", "lonely", "--lang", "python")).code).toBe(0);
    const dir = join(sb.globalRoot, "lonely");
    const env = { ...process.env };
    delete env.PYTHONPATH;
    const bare = spawnSync(join(dir, "main.py"), { cwd: dir, env, input: "", encoding: "utf8" });
    expect(bare.status).toBe(1);
    expect(bare.stdout).toBe("");
    expect(bare.stderr).toMatch(/^lonely: cannot import zot_ext/);
    expect(bare.stderr).toContain("copy zot_ext.py beside it");

    copyFileSync(join(REPO_ROOT, "sdk", "python", "zot_ext.py"), join(dir, "zot_ext.py"));
    const copied = spawnSync(join(dir, "main.py"), { cwd: dir, env, input: "", encoding: "utf8" });
    expect(JSON.parse(copied.stdout.split("\n")[0]!)).toMatchObject({ type: "hello", name: "lonely" });
  });

  it("is listed as an enabled install, and --project puts it in the project, trusted there (it needs no approval)", async () => {
    expect((await zot("new", "here", "--project", "--lang", "sh")).code).toBe(0);
    expect(existsSync(join(sb.projectRoot, "here", "extension.json"))).toBe(true);
    const list = JSON.parse((await zot("list", "--json")).stdout);
    expect(list).toEqual([expect.objectContaining({ name: "here", scope: "project", enabled: true, language: "sh" })]);
    expect(list[0].needs_approval).toBeUndefined();
  });

  it("refuses an existing folder, an unknown language and an unusable name", async () => {
    expect((await zot("new", "twice")).code).toBe(0);
    const again = await zot("new", "twice");
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^zot: .*already exists/);
    const lang = await zot("new", "other", "--lang", "cobol");
    expect(lang.code).toBe(2);
    expect(lang.stderr).toMatch(/^zot: --lang must be one of ts\|js\|python\|sh/);
    const bad = await zot("new", "evil$name");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not a usable extension name/);
    // A path is a place to scaffold into, but its last segment must still be a usable name.
    const badPath = await zot("new", "../bad name");
    expect(badPath.code).toBe(2);
    expect(badPath.stderr).toMatch(/"bad name" is not a usable extension name/);
    expect(existsSync(join(sb.home, "evil"))).toBe(false);
    expect(existsSync(join(sb.globalRoot, "other"))).toBe(false);
  });

  it("--help lists every template", async () => {
    const help = await zot("new", "--help");
    for (const lang of Object.keys(TEMPLATES)) expect(help.stdout).toMatch(new RegExp(`^  ${lang} +\\S`, "m"));
    expect(help.stdout).toContain("zot-sdk.mjs");
  });
});
