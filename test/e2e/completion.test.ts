// `zot completion bash|zsh|fish` from the real bundle: each script parses in its shell, and the
// bash one, sourced into a real bash, completes commands, flag values and installed extensions.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_NAMES } from "../../lib/providers/index.ts";
import { makeWorld, ZOT, type World } from "./support.ts";

let world: World;
let bin: string;
beforeAll(async () => {
  world = await makeWorld();
  // The script asks `zot` itself for installed extensions: a zot on PATH that is this bundle.
  bin = join(world.home, "..", "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "zot"), `#!/bin/sh\nexec "${process.execPath}" "${ZOT}" "$@"\n`);
  chmodSync(join(bin, "zot"), 0o755);
  const ext = join(world.home, "extensions", "notes");
  mkdirSync(ext, { recursive: true });
  writeFileSync(join(ext, "extension.json"), JSON.stringify({ name: "notes", exec: "./run.sh" }));
});
afterAll(async () => { await world.close(); });

const has = (program: string) => spawnSync("sh", ["-c", `command -v ${program}`]).status === 0;

// CI installs zsh and fish (.ci/run); a machine without them fails here and in their tests, never skips.
it("zsh and fish are installed for the completion tests", () => {
  expect(has("zsh"), "install zsh: apt-get install zsh").toBe(true);
  expect(has("fish"), "install fish: apt-get install fish").toBe(true);
});

async function script(shell: string): Promise<string> {
  const r = await world.run(["completion", shell]);
  expect(r.code, r.stderr).toBe(0);
  const file = join(world.home, "..", `zot.${shell}`);
  writeFileSync(file, r.stdout);
  return file;
}

/** COMPREPLY after the bash script completes `words` (the last one being typed), one array per case. */
function bashComplete(file: string, cases: string[][]): string[][] {
  const calls = cases.map((words) => `t ${words.map((w) => `'${w}'`).join(" ")}`).join("\n");
  const driver = `source "$1"
t() { COMP_WORDS=("$@"); COMP_CWORD=$(( \${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _zot; printf '%s\\n' "\${COMPREPLY[@]}"; echo "<end>"; }
${calls}`;
  const out = execFileSync("bash", ["-c", driver, "driver", file], {
    encoding: "utf8", cwd: world.cwd, env: { ...world.env, PATH: `${bin}:${world.env.PATH}` },
  });
  return out.split("<end>\n").slice(0, cases.length).map((block) => block.split("\n").filter(Boolean));
}

describe("shell completion", () => {
  it("the bash script passes bash -n", async () => {
    const r = spawnSync("bash", ["-n", await script("bash")], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("the zsh script passes zsh -n", async () => {
    const r = spawnSync("zsh", ["-n", await script("zsh")], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("in zsh (through bashcompinit) the function completes subcommands and asks zot for extension names", async () => {
    const file = await script("zsh");
    const driver = `autoload -U compinit && compinit -u -d "$2"
source "$1"
COMP_WORDS=(zot ext ""); COMP_CWORD=2; _zot; print -l -- "\${COMPREPLY[@]}"; print "<end>"
COMP_WORDS=(zot ext remove ""); COMP_CWORD=3; _zot; print -l -- "\${COMPREPLY[@]}"`;
    const out = execFileSync("zsh", ["-c", driver, "driver", file, join(world.home, "..", "zcompdump")], {
      encoding: "utf8", cwd: world.cwd, env: { ...world.env, PATH: `${bin}:${world.env.PATH}` },
    });
    const [subcommands, names] = out.split("<end>\n").map((block) => block.split("\n").filter(Boolean));
    expect(subcommands).toContain("update");
    expect(names).toEqual(["notes"]);
  });

  it("the fish script passes fish --no-execute, and fish completes from it", async () => {
    const file = await script("fish");
    const r = spawnSync("fish", ["--no-execute", file], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const done = spawnSync("fish", ["-c", `source ${file}; complete -C 'zot e'; echo '<end>'; complete -C 'zot --provider '`], { encoding: "utf8" });
    const [commands, providers] = done.stdout.split("<end>\n");
    expect(commands!.split("\n").map((l) => l.split("\t")[0])).toContain("ext");
    expect(providers!.split("\n").map((l) => l.split("\t")[0])).toEqual(expect.arrayContaining(["anthropic", "openai"]));
  });

  it("bash completes commands, flags, flag values and installed extension names", async () => {
    const [commands, providers, providerEq, mode, extSub, removeNames, flags, prompt, models] = bashComplete(await script("bash"), [
      ["zot", "e"], ["zot", "--provider", ""], ["zot", "--provider", "=", "o"], ["zot", "--mode", "j"], ["zot", "ext", "up"],
      ["zot", "ext", "remove", ""], ["zot", "ext", "install", "--fo"], ["zot", "hello", ""], ["zot", "--model", "gpt-4.1-m"],
    ]);
    expect(commands).toContain("ext");
    expect(providers).toEqual([...PROVIDER_NAMES]);
    expect(providerEq).toEqual(PROVIDER_NAMES.filter((name) => name.startsWith("o")));
    expect(mode).toEqual(["json"]);
    expect(extSub).toEqual(["update"]);
    expect(removeNames).toEqual(["notes"]);
    expect(flags).toEqual(["--force"]);
    expect(prompt).toEqual([]); // a prompt is free text
    expect(models).toEqual(["gpt-4.1-mini"]);
  });

  it("an unknown shell is a usage error", async () => {
    const r = await world.run(["completion", "powershell"]);
    expect(r).toMatchObject({ code: 2, stdout: "" });
    expect(r.stderr).toMatch(/^zot: unknown shell "powershell"/);
    expect((await world.run(["completion"])).code).toBe(2);
  });
});
