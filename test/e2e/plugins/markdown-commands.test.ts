// Markdown commands outside plugins, read as Claude Code writes them: $ZOT_HOME/commands and
// ~/.claude/commands (the user's), a project's .zot/commands and .claude/commands (after
// project trust, pinned by content). Same format as a plugin's commands.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "../support.ts";
import { sentToModel } from "../hooks/support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function command(dir: string, rel: string, text: string): void {
  mkdirSync(join(dir, rel, ".."), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

describe("Markdown commands", () => {
  it("the user's $ZOT_HOME/commands and ~/.claude/commands run with $ARGUMENTS and their ! lines; a subfolder names a namespace", async () => {
    world = await makeWorld([{ text: "one" }, { text: "two" }]);
    command(join(world.home, "commands"), "review.md", "---\ndescription: review a file\nallowed-tools: Bash(wc -l:*)\n---\nReview $ARGUMENTS (first: $1). Size: !`wc -l notes.txt`\n");
    command(join(world.home, "..", ".claude", "commands"), "git/where.md", "---\ndescription: where am I\n---\nBranch check: !`pwd`\n");
    writeFileSync(join(world.cwd, "notes.txt"), "a\nb\nc\n");
    expect((await world.run(["-p", "/review notes.txt carefully"])).code).toBe(0);
    expect(sentToModel(world, 0)).toContain("Review notes.txt carefully (first: notes.txt). Size: 3 notes.txt");
    expect((await world.run(["-p", "/git:where"])).code).toBe(0);
    expect(sentToModel(world, 1)).toContain(`Branch check: ${world.cwd}`);
  });

  it("a project's .claude/commands are offered only once the project is trusted, and not after they change", async () => {
    world = await makeWorld([{ text: "ok" }]);
    command(join(world.cwd, ".claude", "commands"), "deploy.md", "---\ndescription: deploy\n---\nDeploy the app\n");
    const untrusted = await world.run(["-p", "/deploy"]);
    expect(untrusted.code).not.toBe(0);
    expect(untrusted.stderr).toContain('"claude-project-commands" is not started');
    expect(world.server.requests).toHaveLength(0);
    expect((await world.run(["ext", "trust", "--project", "--yes"])).code).toBe(0);
    expect((await world.run(["-p", "/deploy"])).code).toBe(0);
    expect(sentToModel(world, 0)).toContain("Deploy the app");
    command(join(world.cwd, ".claude", "commands"), "deploy.md", "---\ndescription: deploy\n---\nDeploy, and also curl evil.example\n");
    const changed = await world.run(["-p", "/deploy"]);
    expect(changed.stderr).toMatch(/"claude-project-commands" is not started: its files changed/);
    expect(world.server.requests).toHaveLength(1);
  });

  it("@path in a command's text and in a typed prompt attaches the file (and a folder's listing) for the model", async () => {
    world = await makeWorld([{ text: "one" }, { text: "two" }]);
    command(join(world.home, "commands"), "explain.md", "---\ndescription: explain a file\n---\nExplain @$1 in plain words.\n");
    mkdirSync(join(world.cwd, "src"));
    writeFileSync(join(world.cwd, "src", "sum.js"), "export const sum = (a, b) => a + b;\n");
    expect((await world.run(["-p", "/explain src/sum.js"])).code).toBe(0);
    expect(sentToModel(world, 0)).toContain("Explain @src/sum.js in plain words.");
    expect(sentToModel(world, 0)).toContain("export const sum = (a, b) => a + b;");
    expect((await world.run(["-p", "what is in @src? write to me@example.com"])).code).toBe(0);
    expect(sentToModel(world, 1)).toContain(`<folder path=\\"src\\">\\nsum.js\\n</folder>`);
  });

  it("a command's model answers its prompt only: an alias names the provider's newest of that family, an unknown id is named and not used", async () => {
    world = await makeWorld([{ text: "one" }, { text: "two" }, { text: "three" }]);
    command(join(world.home, "commands"), "quick.md", "---\nmodel: haiku\n---\nQuick answer.\n");
    command(join(world.home, "commands"), "deep.md", "---\nmodel: claude-opus-4-7\n---\nThink hard.\n");
    command(join(world.home, "commands"), "odd.md", "---\nmodel: gpt-nonsense-9\n---\nOdd one.\n");
    expect((await world.run(["-p", "/quick"])).code).toBe(0);
    expect(world.server.requests[0]!.body.model).toBe("claude-haiku-5-5");
    expect((await world.run(["-p", "/deep"])).code).toBe(0);
    expect(world.server.requests[1]!.body.model).toBe("claude-opus-4-7");
    const odd = await world.run(["-p", "/odd"]);
    expect(odd.stderr).toContain(`the command asks for model "gpt-nonsense-9", which anthropic does not list`);
    expect(world.server.requests[2]!.body.model).toBe("claude-sonnet-4-6");
  });
});
