// Every template works wherever zot runs: scaffolded by path into a plain folder, by the Node
// bundle on a PATH with no bun or deno (as after `npm install -g` on Node 20) and by the compiled
// single binary, each one passes `zot ext doctor` and `zot ext test`, and the TypeScript one
// passes `tsc --noEmit` as created.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPILE_FLAGS } from "../../release/compile-flags.ts";
import { REPO_ROOT, ZOT } from "./support/cli.ts";

const work = realpathSync(mkdtempSync(join(tmpdir(), "zot-templates-anywhere-")));
const binary = join(work, "zot");
/** Node's own folder and the system's: no bun, no deno (checked below, not assumed). */
const BARE_PATH = [dirname(process.execPath), "/usr/bin", "/bin"].join(delimiter);

beforeAll(() => {
  const built = spawnSync(join(REPO_ROOT, "node_modules", ".bin", "bun"), ["build", "bin/zot.ts", ...COMPILE_FLAGS, `--outfile=${binary}`],
    { cwd: REPO_ROOT, encoding: "utf8" });
  if (built.status !== 0) throw new Error(`could not compile zot:\n${built.stderr}`);
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Run { code: number | null; stdout: string; stderr: string }

function run(command: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(command[0]!, command.slice(1), { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c));
    child.stderr.on("data", (c: Buffer) => (stderr += c));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

const RUNNERS: Record<string, () => string[]> = {
  "the Node bundle": () => [process.execPath, ZOT],
  "the compiled binary": () => [binary],
};

describe("zot ext new PATH: every template passes doctor and ext test wherever zot runs", () => {
  it("the bare PATH has no bun and no deno", () => {
    for (const dir of BARE_PATH.split(delimiter)) {
      expect(existsSync(join(dir, "bun")), `${dir}/bun`).toBe(false);
      expect(existsSync(join(dir, "deno")), `${dir}/deno`).toBe(false);
    }
  });

  for (const [runner, zot] of Object.entries(RUNNERS)) {
    for (const lang of ["ts", "js", "python", "sh"]) {
      it(`${runner}: the ${lang} template, created in a plain folder`, async () => {
        const base = join(work, `${runner.replace(/\W+/g, "-")}-${lang}`);
        const home = join(base, "home");
        mkdirSync(home, { recursive: true });
        const env = { PATH: BARE_PATH, HOME: home, ZOT_HOME: home };
        const made = await run([...zot(), "ext", "new", `./checkout/greeter-${lang}`, "--lang", lang], base, env);
        expect(made.stderr).toBe("");
        expect(made.code).toBe(0);
        const dir = join(base, "checkout", `greeter-${lang}`);
        expect(made.stdout).toContain(`Created greeter-${lang} (${lang}, folder) in ${dir}`);
        // The hint names that place, not zot's own folders.
        expect(made.stdout).toContain(`zot --ext ${dir}`);
        expect(made.stdout).toContain(`zot ext install ${dir}`);
        expect(existsSync(join(home, "extensions"))).toBe(false);

        const doctor = await run([...zot(), "ext", "doctor", "--json", "--ext", dir], base, env);
        const report = JSON.parse(doctor.stdout);
        expect(report.extensions.map((e: { name: string; status: string; errors: string[] }) => [e.name, e.status, e.errors]))
          .toEqual([[`greeter-${lang}`, "ok", []]]);
        expect(doctor.code).toBe(0);

        const test = await run([...zot(), "ext", "test", dir], base, env);
        expect(test.stdout).toMatch(/^conforms: \d+ passed/m);
        expect(test.code).toBe(0);

        if (lang === "ts") {
          const tsc = spawnSync(join(REPO_ROOT, "node_modules", ".bin", "tsc"), ["--noEmit", "-p", dir], { cwd: dir, encoding: "utf8" });
          expect(tsc.stdout + tsc.stderr).toBe("");
          expect(tsc.status).toBe(0);
        }
      }, 60_000);
    }
  }

  it("a path that exists is refused and left as it was; --project takes a name, not a path", async () => {
    const base = join(work, "refusals");
    const home = join(base, "home");
    mkdirSync(join(base, "taken"), { recursive: true });
    const env = { PATH: BARE_PATH, HOME: home, ZOT_HOME: home };
    const taken = await run([process.execPath, ZOT, "ext", "new", "./taken"], base, env);
    expect(taken.code).not.toBe(0);
    expect(taken.stderr).toContain(`${join(base, "taken")} already exists`);
    expect(readdirSync(join(base, "taken"))).toEqual([]);
    const project = await run([process.execPath, ZOT, "ext", "new", "./mine", "--project"], base, env);
    expect(project.code).toBe(2);
    expect(project.stderr).toContain("--project");
    expect(existsSync(join(base, "mine"))).toBe(false);
  });
});
