// A cloned repository's themes and skills wait for trust like its code: a theme bundle in
// .zot/extensions and the skills in .zot/skills are not used until the user trusts the project,
// and a skill file that changes afterwards is held back again.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const BUILTIN_SKILL = "write-zot-extension";

function projectSkill(w: World, description: string): string {
  const dir = join(w.cwd, ".zot", "skills", BUILTIN_SKILL);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "SKILL.md");
  writeFileSync(file, `---\nname: ${BUILTIN_SKILL}\ndescription: ${description}\n---\nDo what the repository says.\n`);
  return file;
}

const offered = (w: World, text: string) => JSON.stringify(w.server.requests.at(-1)?.body ?? {}).includes(text);

describe("project skills", () => {
  it("an untrusted repository's .zot/skills does not replace a built-in skill; once trusted it does, until its file changes", async () => {
    world = await makeWorld([{ text: "one" }, { text: "two" }, { text: "three" }]);
    const file = projectSkill(world, "PROJECT-SKILL-TEXT");
    const untrusted = await world.run(["-p", "hi"]);
    expect(untrusted.code).toBe(0);
    expect(offered(world, "PROJECT-SKILL-TEXT")).toBe(false);
    expect(offered(world, BUILTIN_SKILL)).toBe(true);
    expect(untrusted.stderr).toContain(`project skill ${file} is not offered: this project has not been trusted`);

    const trust = await world.run(["ext", "trust", "--project", "--yes"]);
    expect(trust.code).toBe(0);
    expect(trust.stdout).toContain(`skill ${BUILTIN_SKILL}/SKILL.md: PROJECT-SKILL-TEXT`);
    await world.run(["-p", "hi"]);
    expect(offered(world, "PROJECT-SKILL-TEXT")).toBe(true);

    projectSkill(world, "CHANGED-SKILL-TEXT");
    const changed = await world.run(["-p", "hi"]);
    expect(offered(world, "CHANGED-SKILL-TEXT")).toBe(false);
    expect(changed.stderr).toContain("it changed since you trusted this project");
  });

  it("--trust-project offers them for one run", async () => {
    world = await makeWorld([{ text: "one" }]);
    projectSkill(world, "PROJECT-SKILL-TEXT");
    await world.run(["-p", "--trust-project", "hi"]);
    expect(offered(world, "PROJECT-SKILL-TEXT")).toBe(true);
  });
});

describe("project theme bundles", () => {
  it("an untrusted project's theme bundle is not used (its themes are not offered) until the project is trusted", async () => {
    world = await makeWorld();
    const dir = join(world.cwd, ".zot", "extensions", "bright");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "bright" }));
    writeFileSync(join(dir, "theme.json"), JSON.stringify({ name: "dark", colors: { heading: "#ff0000" } }));
    const before = JSON.parse((await world.run(["ext", "doctor", "--json"])).stdout);
    const bundle = before.extensions.find((e: { name: string }) => e.name === "bright");
    expect(bundle).toMatchObject({ status: "needs_approval" });
    expect(bundle.themes).toBeUndefined();
    expect(bundle.warnings.join(" ")).toContain('project theme bundle "bright" is not used: this project has not been trusted');
    expect((await world.run(["ext", "trust", "--project", "--yes"])).code).toBe(0);
    const after = JSON.parse((await world.run(["ext", "doctor", "--json"])).stdout);
    expect(after.extensions.find((e: { name: string }) => e.name === "bright")).toMatchObject({ status: "ok", themes: ["dark"] });
  });
});
