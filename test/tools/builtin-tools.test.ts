import { describe, expect, it } from "vitest";
import { discoverSkills } from "../../lib/coding/skills.ts";
import { createBuiltinTools, unknownToolNames } from "../../lib/tools/builtin-tools.ts";
import { context, tempDir, textOf } from "./helpers.ts";

describe("createBuiltinTools", () => {
  it("builds read, write, edit, bash and, with skills, skill — each with schema, description and preview", () => {
    const cwd = tempDir();
    const skills = discoverSkills({ cwd, zotHome: tempDir() });
    const tools = createBuiltinTools({ cwd, skills });
    expect(tools.map((t) => t.name)).toEqual(["read", "write", "edit", "bash", "glob", "grep", "skill"]);
    for (const tool of tools) {
      expect(tool.source).toEqual({ kind: "builtin" });
      expect(tool.description.length).toBeGreaterThan(20);
      expect(tool.schema).toMatchObject({ type: "object", properties: expect.any(Object), required: expect.any(Array) });
      expect(typeof tool.preview!({})).toBe("string");
    }
  });

  it("leaves out the skill tool when there are no skills", () => {
    const cwd = tempDir();
    expect(createBuiltinTools({ cwd }).map((t) => t.name)).toEqual(["read", "write", "edit", "bash", "glob", "grep"]);
    expect(createBuiltinTools({ cwd, skills: [] }).map((t) => t.name)).not.toContain("skill");
  });

  it("only keeps the selected tools, and unknown names are a clear error", () => {
    const cwd = tempDir();
    expect(createBuiltinTools({ cwd, only: ["bash", "read"] }).map((t) => t.name)).toEqual(["read", "bash"]);
    expect(createBuiltinTools({ cwd, only: [] })).toEqual([]);
    expect(() => createBuiltinTools({ cwd, only: ["read", "find"] })).toThrow('unknown built-in tool "find"; available: read, write, edit, bash, glob, grep, skill, agent');
    expect(unknownToolNames(["read", "ls", "skill"])).toEqual(["ls"]);
  });

  it("passes bashTimeoutMs to bash", async () => {
    const cwd = tempDir();
    const bash = createBuiltinTools({ cwd, bashTimeoutMs: 150, only: ["bash"] })[0]!;
    const out = await bash.execute({ command: "sleep 30" }, context(cwd));
    expect(out.status).toBe("timed_out");
    expect(textOf(out)).toContain("0.15 s");
  });

  it("tools work end to end in one folder: write, read, edit, bash", async () => {
    const cwd = tempDir();
    const t = Object.fromEntries(createBuiltinTools({ cwd }).map((x) => [x.name, x]));
    await t.write!.execute({ path: "src/app.txt", content: "hello world\n" }, context(cwd));
    await t.edit!.execute({ path: "src/app.txt", old_text: "world", new_text: "zot" }, context(cwd));
    expect(textOf(await t.read!.execute({ path: "src/app.txt" }, context(cwd)))).toBe("hello zot");
    expect(textOf(await t.bash!.execute({ command: "cat src/app.txt" }, context(cwd)))).toBe("hello zot");
  });
});
