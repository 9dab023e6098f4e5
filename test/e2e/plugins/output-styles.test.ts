// Output styles in Claude Code's format (`output-styles/*.md`: frontmatter name and description,
// the body joins the system prompt): from a plugin, $ZOT_HOME/output-styles and
// ~/.claude/output-styles; picked with /output-style or config.json's `output_style`.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { OutputStyleChoice } from "../../../lib/app/output-style.ts";
import { makeWorld, type World } from "../support.ts";
import { sentToModel } from "../hooks/support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const style = (dir: string, file: string, name: string | undefined, text: string) => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), `---\n${name ? `name: ${name}\n` : ""}description: ${file} style\nkeep-coding-instructions: true\n---\n\n${text}\n`);
};

/** A plugin whose only part is an output style. */
function stylePlugin(root: string): string {
  const dir = join(root, "teaching-plugin");
  mkdirSync(join(dir, ".claude-plugin"), { recursive: true });
  writeFileSync(join(dir, ".claude-plugin", "plugin.json"), JSON.stringify({ name: "teaching", version: "1.0.0" }));
  style(join(dir, "output-styles"), "teacher.md", "Teacher", "Explain each change as a lesson with one exercise.");
  return dir;
}

describe("output styles", () => {
  it("a plugin's style is listed by /output-style and, picked in config.json, joins the system prompt", async () => {
    world = await makeWorld([{ text: "ok" }, { text: "ok" }]);
    const plugin = stylePlugin(join(world.home, ".."));
    const listed = await world.run(["--ext", plugin, "-p", "/output-style"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/\* default/);
    expect(listed.stdout).toContain("Teacher");
    expect(listed.stdout).toContain("[teaching]");
    expect(world.server.requests).toHaveLength(0);
    writeFileSync(join(world.home, "config.json"), JSON.stringify({ output_style: "teaching:Teacher" }));
    expect((await world.run(["--ext", plugin, "-p", "hi"])).code).toBe(0);
    const system = JSON.stringify(world.server.requests[0]!.body.system);
    expect(system).toContain("Output style: Teacher");
    expect(system).toContain("Explain each change as a lesson with one exercise.");
    // zot's own instructions stay under the style.
    expect(system).toContain("You are zot, a coding agent");
  });

  it("the user's own style wins by name over Claude Code's folder; a style picked for one run is not saved", async () => {
    world = await makeWorld([{ text: "ok" }]);
    style(join(world.home, "output-styles"), "terse.md", undefined, "Answer in one line.");
    style(join(world.home, "..", ".claude", "output-styles"), "terse.md", undefined, "Answer in haiku.");
    style(join(world.home, "..", ".claude", "output-styles"), "review.md", "Reviewer", "Review like a maintainer.");
    const picked = await world.run(["-p", "/output-style terse"]);
    expect(picked.code, picked.stderr).toBe(0);
    expect(picked.stdout).toContain("for this run only");
    expect(() => readFileSync(join(world!.home, "config.json"), "utf8")).toThrow();
    writeFileSync(join(world.home, "config.json"), JSON.stringify({ output_style: "terse" }));
    expect((await world.run(["-p", "hi"])).code).toBe(0);
    expect(sentToModel(world, 0)).toContain("Answer in one line.");
    expect(sentToModel(world, 0)).not.toContain("haiku");
    const listed = await world.run(["-p", "/output-style"]);
    expect(listed.stdout).toMatch(/\* terse/);
    expect(listed.stdout).toContain("Reviewer");
  });

  it("a picked style that is not installed is named in a warning and the run goes on with zot's default", async () => {
    world = await makeWorld([{ text: "ok" }]);
    writeFileSync(join(world.home, "config.json"), JSON.stringify({ output_style: "Pirate" }));
    const r = await world.run(["-p", "hi"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`output style "Pirate" is not installed`);
    expect(sentToModel(world, 0)).not.toContain("Output style:");
    const refused = await world.run(["-p", "/output-style Pirate"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`no output style "Pirate"`);
  });

  it("picked in the REPL, a style is saved in config.json for later runs; default removes it", async () => {
    world = await makeWorld();
    style(join(world.home, "output-styles"), "terse.md", undefined, "Answer in one line.");
    writeFileSync(join(world.home, "config.json"), JSON.stringify({ theme: "dark" }));
    const warnings: string[] = [];
    const choice = new OutputStyleChoice({ zotHome: world.home, configFile: join(world.home, "config.json"), warn: (m) => warnings.push(m),
      claudeHome: join(world.home, "..", ".claude") });
    choice.refresh([]);
    expect((await choice.command("terse", true)).kind).toBe("output");
    expect(JSON.parse(readFileSync(join(world.home, "config.json"), "utf8"))).toEqual({ theme: "dark", output_style: "terse" });
    expect(choice.section()).toContain("Answer in one line.");
    await choice.command("default", true);
    expect(JSON.parse(readFileSync(join(world.home, "config.json"), "utf8"))).toEqual({ theme: "dark" });
    expect(choice.section()).toBeUndefined();
    expect(warnings).toEqual([]);
  });
});
