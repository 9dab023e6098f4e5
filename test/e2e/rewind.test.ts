// Checkpoints and /rewind: over three prompts the model edits a file, writes two, and runs a bash
// command that changes, removes and creates files; /rewind to the first prompt puts the tree back
// as it was before it, keeps what only the user changed, forks the conversation there, and leaves
// git's HEAD and index alone.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, type World } from "./support.ts";

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-C", cwd, ...args], { encoding: "utf8" }).trim();

/** Every file under `dir` but .git, by relative path. */
function tree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      if (name === ".git") continue;
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(dir, path)] = readFileSync(path, "utf8");
    }
  };
  walk(dir);
  return files;
}

const call = (id: string, name: string, args: Record<string, unknown>) => ({ tool_calls: [{ id, name, args }], stop: "tool_use" as const });

describe("/rewind", () => {
  it("puts back the files the model's edit, writes and bash changed over three prompts, keeps the user's own, and forks the conversation", async () => {
    world = await makeWorld([
      call("c1", "edit", { path: "a.txt", edits: [{ old_text: "A0", new_text: "A1" }] }), { text: "edited" },
      { tool_calls: [{ id: "c2", name: "write", args: { path: "src/new.txt", content: "NEW\n" } }, { id: "c3", name: "write", args: { path: "b.txt", content: "B2\n" } }], stop: "tool_use" },
      { text: "written" },
      call("c4", "bash", { command: "echo C3 > c.txt && rm u.txt && echo made > bashmade.txt" }), { text: "ran" },
    ]);
    const cwd = world.cwd;
    git(cwd, "init", "-q");
    git(cwd, "config", "user.email", "t@example.com");
    git(cwd, "config", "user.name", "t");
    writeFileSync(join(cwd, "a.txt"), "A0\n");
    writeFileSync(join(cwd, "b.txt"), "B0\n");
    writeFileSync(join(cwd, "c.txt"), "C0\n");
    writeFileSync(join(cwd, ".gitignore"), "ignored.txt\n");
    git(cwd, "add", "-A");
    git(cwd, "commit", "-qm", "start");
    writeFileSync(join(cwd, "c.txt"), "C-dirty\n");
    writeFileSync(join(cwd, "u.txt"), "U0\n");
    const before = tree(cwd);
    const head = git(cwd, "rev-parse", "HEAD");

    for (const prompt of ["edit a", "write files", "run it"]) {
      const r = await world.run([...(prompt === "edit a" ? [] : ["-c"]), "-p", prompt]);
      expect(r.code, r.stderr).toBe(0);
    }
    writeFileSync(join(cwd, "user.txt"), "mine\n");
    expect(tree(cwd)).toMatchObject({ "a.txt": "A1\n", "b.txt": "B2\n", "c.txt": "C3\n", "src/new.txt": "NEW\n", "bashmade.txt": "made\n" });
    expect(existsSync(join(cwd, "u.txt"))).toBe(false);

    const listed = await world.run(["-c", "-p", "/rewind"]);
    expect(listed.stdout).toMatch(/\s0\s+files\s+edit a/);
    const rewound = await world.run(["-c", "-p", "/rewind 0"]);
    expect(rewound.code, rewound.stderr).toBe(0);
    expect(rewound.stdout).toContain("restored a.txt");
    expect(rewound.stdout).toContain("removed  bashmade.txt");
    expect(tree(cwd)).toEqual({ ...before, "user.txt": "mine\n" });
    expect(git(cwd, "rev-parse", "HEAD")).toBe(head);
    expect(git(cwd, "diff", "--cached", "--name-only")).toBe("");
    expect(rewound.stdout).toMatch(/Conversation: back to before message 0, in \S+ \(the later part stays in \S+: \/tree\)/);
    expect(rewound.stdout).toContain("The prompt there was: edit a");
  });

  it("rewinding the files only leaves the conversation; a second rewind to a later prompt restores only what came after it", async () => {
    world = await makeWorld([
      call("c1", "write", { path: "one.txt", content: "1\n" }), { text: "ok" },
      call("c2", "write", { path: "one.txt", content: "2\n" }), { text: "ok" },
    ]);
    expect((await world.run(["-p", "first"])).code).toBe(0);
    expect((await world.run(["-c", "-p", "second"])).code).toBe(0);
    expect((await world.run(["sessions"])).stdout).toMatch(/\d+ messages +2 checkpoints +first/);
    const points = (await world.run(["-c", "-p", "/rewind"])).stdout;
    const second = Number(/\s(\d+)\s+files\s+second/.exec(points)![1]);
    const r = await world.run(["-c", "-p", `/rewind ${second} files`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain("Conversation:");
    expect(readFileSync(join(world.cwd, "one.txt"), "utf8")).toBe("1\n");
    expect((await world.run(["-c", "-p", "/rewind 0 files"])).code).toBe(0);
    expect(existsSync(join(world.cwd, "one.txt"))).toBe(false);
  });
});
