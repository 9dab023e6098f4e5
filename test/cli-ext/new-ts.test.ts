// `zot ext new --lang ts`: the vendored SDK is the current lib/sdk, and the launcher finds a
// runtime (bun, deno, a bundled main.mjs under Node 20) or says clearly that there is none.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TS_SDK_BUNDLE } from "../../lib/extensions/authoring/templates/ts-sdk.generated.ts";
import { TS_SDK_DECLARATIONS } from "../../lib/extensions/authoring/templates/sdk-declarations.ts";
import { makeSandbox, REPO_ROOT, runZot, type Sandbox } from "./support/cli.ts";
import { spawnExtension } from "./support/driver.ts";

const BIN = join(REPO_ROOT, "node_modules", ".bin");
const BUN = join(BIN, "bun");
const TSC = join(BIN, "tsc");

/** The names an ES module's source exports (its `export { … }` list and `export declare`/`export function` forms). */
function valueExports(source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(/^export \{([^}]*)\}/gm)) for (const n of m[1]!.split(",")) if (n.trim()) names.add(n.trim());
  for (const m of source.matchAll(/^export (?:declare )?(?:function|class|const) (\w+)/gm)) names.add(m[1]!);
  return [...names].sort();
}

let sb: Sandbox;
let dir: string;
beforeEach(async () => {
  sb = makeSandbox();
  const made = await runZot(["ext", "new", "hello", "--lang", "ts"], { cwd: sb.project, env: sb.env });
  expect(made.code, made.stderr).toBe(0);
  dir = join(sb.globalRoot, "hello");
});
afterEach(() => {
  vi.unstubAllEnvs();
  sb.cleanup();
});

/** A PATH holding only the given programs (symlinks), so no other runtime can be found. */
function pathWith(programs: Record<string, string>): string {
  const bin = join(sb.base, `path-${Object.keys(programs).join("-") || "empty"}`);
  mkdirSync(bin);
  for (const [name, target] of Object.entries(programs)) symlinkSync(realpathSync(target), join(bin, name));
  return bin;
}

/** Starts the scaffold as its manifest says and has it answer /hello. */
async function answersCommand(): Promise<void> {
  const ext = spawnExtension(dir);
  try {
    expect(await ext.next(15_000)).toMatchObject({ type: "hello", name: "hello" });
    ext.send({ type: "hello_ack", protocol_version: 1, zot_version: "0.1.0", provider: "anthropic",
      model: "m", cwd: sb.project, extension_dir: dir, data_dir: dir, capabilities: [] });
    for (let frame = await ext.next(); frame.type !== "ready"; frame = await ext.next()) {
      expect(frame.type).toMatch(/^register_/);
    }
    ext.send({ type: "command_invoked", id: "c-1", name: "hello", args: "hi" });
    expect(await ext.next()).toEqual({ type: "command_response", id: "c-1", action: "display", display: "Hello from hello! You said: hi" });
    ext.send({ type: "shutdown" });
    expect(await ext.next()).toEqual({ type: "shutdown_ack" });
    expect(await ext.exited).toBe(0);
  } finally {
    ext.child.kill("SIGKILL");
  }
}

describe("zot ext new --lang ts", () => {
  it("the build embeds the current SDK: regenerating it from lib/sdk changes nothing", () => {
    const check = spawnSync(BUN, [join(REPO_ROOT, "lib/extensions/authoring/templates/generate-ts-sdk.ts"), "--check"], { encoding: "utf8" });
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
    const vendored = readFileSync(join(dir, "zot-sdk.mjs"), "utf8");
    expect(vendored.endsWith(TS_SDK_BUNDLE)).toBe(true);
    expect(vendored).toMatch(/^export \{[^}]*\bcreateExtension\b/m);
    expect(readFileSync(join(dir, "main.ts"), "utf8")).toContain('from "./zot-sdk.mjs"');
  });

  it("runs under deno when it is the only runtime on PATH", async () => {
    vi.stubEnv("PATH", pathWith({ deno: join(BIN, "deno") }));
    vi.stubEnv("DENO_DIR", join(sb.base, "deno-cache"));
    vi.stubEnv("DENO_NO_UPDATE_CHECK", "1");
    await answersCommand();
  });

  it("runs as created under Node 20 with no TypeScript runtime on PATH (main.mjs is main.ts without types)", async () => {
    vi.stubEnv("PATH", pathWith({ node: process.execPath }));
    await answersCommand();
  });

  it("tsc --noEmit passes as created without @types/node, and the declarations type the SDK", () => {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(pkg).toMatchObject({ type: "module", private: true, scripts: { typecheck: "tsc --noEmit" } });
    const ok = spawnSync(TSC, ["--noEmit", "-p", dir], { cwd: dir, encoding: "utf8" });
    expect(ok.stdout + ok.stderr).toBe("");
    expect(ok.status).toBe(0);
    // A wrong argument is an error: the SDK is typed, not any.
    writeFileSync(join(dir, "main.ts"), `${readFileSync(join(dir, "main.ts"), "utf8")}\ndisplay(42);\n`);
    const bad = spawnSync(TSC, ["--noEmit", "-p", dir], { cwd: dir, encoding: "utf8" });
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toMatch(/main\.ts.*TS2345/);
  });

  it("the declarations name every export of the vendored SDK, and nothing it lacks", () => {
    const declared = valueExports(TS_SDK_DECLARATIONS);
    expect(declared).toEqual(valueExports(TS_SDK_BUNDLE));
    expect(readFileSync(join(dir, "zot-sdk.d.mts"), "utf8")).toBe(TS_SDK_DECLARATIONS);
  });

  it("package.json's build remakes main.mjs from main.ts, and it runs under Node 20 alone", async () => {
    rmSync(join(dir, "main.mjs"));
    const build = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).scripts.build as string;
    const [tool, ...args] = build.split(" ");
    expect(tool).toBe("bun");
    const bundle = spawnSync(BUN, args, { cwd: dir, encoding: "utf8" });
    expect(bundle.status, bundle.stderr).toBe(0);
    vi.stubEnv("PATH", pathWith({ node: process.execPath }));
    await answersCommand();
  });

  it("without any runtime it exits 127 with a clear message, which doctor reports", async () => {
    const empty = pathWith({});
    const alone = spawnSync(join(dir, "run.sh"), { cwd: dir, env: { ...process.env, PATH: empty }, input: "", encoding: "utf8" });
    expect(alone.status).toBe(127);
    expect(alone.stdout).toBe("");
    expect(alone.stderr).toMatch(/^hello: cannot start main\.ts: no TypeScript runtime on PATH\. Install bun .* or deno/);

    const doctor = await runZot(["ext", "doctor", "--json"], { cwd: sb.project, env: { ...sb.env, PATH: empty } });
    expect(doctor.code).toBe(1);
    const [report] = JSON.parse(doctor.stdout).extensions;
    expect(report).toMatchObject({ name: "hello", status: "error" });
    // The first line says why, not only the exit status.
    expect(report.errors[0].split("\n")[0]).toMatch(/exited with status 127 \(its stderr ends: hello: cannot start main\.ts: no TypeScript runtime on PATH\..*\) before sending hello/);
    expect(readFileSync(report.log_path, "utf8")).toContain("no TypeScript runtime on PATH");
  });
});
