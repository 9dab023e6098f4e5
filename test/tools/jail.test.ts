import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createBuiltinTools } from "../../lib/tools/builtin-tools.ts";
import { checkJail, realLocation } from "../../lib/tools/jail.ts";
import type { Tool } from "../../lib/tools/types.ts";
import { context, tempDir, textOf } from "./helpers.ts";

function jailed(cwd: string, jail: boolean | (() => boolean) = true): Record<string, Tool> {
  return Object.fromEntries(createBuiltinTools({ cwd, jail }).map((t) => [t.name, t]));
}

/** A project folder inside a sandbox, with a secret file next to it (outside the project). */
function sandbox() {
  const root = tempDir();
  const cwd = join(root, "project");
  mkdirSync(cwd);
  writeFileSync(join(root, "secret.txt"), "secret\n");
  writeFileSync(join(cwd, "inside.txt"), "inside\n");
  return { root, cwd };
}

describe("jail: paths must resolve inside the cwd", () => {
  it("refuses ../x with a blocked outcome and the jail policy", async () => {
    const { cwd } = sandbox();
    const out = await jailed(cwd).read!.execute({ path: "../secret.txt" }, context(cwd));
    expect(out).toMatchObject({ isError: true, status: "blocked", details: { policy: "jail" } });
    expect(textOf(out)).toContain("blocked by jail");
    expect(textOf(out)).toContain("outside the working directory");
    expect(textOf(out)).not.toContain("secret\n");
  });

  it("refuses an absolute path outside", async () => {
    const { root, cwd } = sandbox();
    const out = await jailed(cwd).read!.execute({ path: join(root, "secret.txt") }, context(cwd));
    expect(out).toMatchObject({ status: "blocked", details: { policy: "jail" } });
  });

  it("refuses a symlink inside the cwd that points outside", async () => {
    const { root, cwd } = sandbox();
    symlinkSync(join(root, "secret.txt"), join(cwd, "link.txt"));
    symlinkSync(root, join(cwd, "linkdir"));
    const tools = jailed(cwd);
    const viaFile = await tools.read!.execute({ path: "link.txt" }, context(cwd));
    expect(viaFile).toMatchObject({ status: "blocked", details: { policy: "jail", resolved: join(root, "secret.txt") } });
    const viaDir = await tools.read!.execute({ path: "linkdir/secret.txt" }, context(cwd));
    expect(viaDir.status).toBe("blocked");
  });

  it("refuses writing a new file through a linked folder or a dangling link that leads out", async () => {
    const { root, cwd } = sandbox();
    symlinkSync(root, join(cwd, "out"));
    symlinkSync(join(root, "created-by-link.txt"), join(cwd, "dangling.txt"));
    const tools = jailed(cwd);
    const a = await tools.write!.execute({ path: "out/new/deep.txt", content: "x" }, context(cwd));
    const b = await tools.write!.execute({ path: "dangling.txt", content: "x" }, context(cwd));
    expect([a.status, b.status]).toEqual(["blocked", "blocked"]);
    expect(existsSync(join(root, "new"))).toBe(false);
    expect(existsSync(join(root, "created-by-link.txt"))).toBe(false);
  });

  it("refuses edit outside and leaves the file untouched", async () => {
    const { root, cwd } = sandbox();
    const out = await jailed(cwd).edit!.execute({ path: "../secret.txt", old_text: "secret", new_text: "gone" }, context(cwd));
    expect(out.status).toBe("blocked");
    expect(readFileSync(join(root, "secret.txt"), "utf8")).toBe("secret\n");
  });

  it("allows paths inside, including new files in new folders and links that stay inside", async () => {
    const { cwd } = sandbox();
    symlinkSync(join(cwd, "inside.txt"), join(cwd, "alias.txt"));
    const tools = jailed(cwd);
    expect(textOf(await tools.read!.execute({ path: "alias.txt" }, context(cwd)))).toBe("inside");
    expect(textOf(await tools.read!.execute({ path: "sub/../inside.txt" }, context(cwd)))).toBe("inside");
    const w = await tools.write!.execute({ path: "a/b/new.txt", content: "ok" }, context(cwd));
    expect(w.isError).toBeFalsy();
    expect(readFileSync(join(cwd, "a", "b", "new.txt"), "utf8")).toBe("ok");
  });

  it("works when the cwd itself is reached through a symlink", async () => {
    const { root, cwd } = sandbox();
    const linkedCwd = join(root, "cwd-link");
    symlinkSync(cwd, linkedCwd);
    const tools = jailed(linkedCwd);
    expect(textOf(await tools.read!.execute({ path: "inside.txt" }, context(linkedCwd)))).toBe("inside");
    expect((await tools.read!.execute({ path: "../secret.txt" }, context(linkedCwd))).status).toBe("blocked");
  });

  it("a folder whose name merely starts with the cwd's name is outside", () => {
    const { root, cwd } = sandbox();
    mkdirSync(join(root, "project-other"));
    expect(checkJail(cwd, join(root, "project-other", "x")).allowed).toBe(false);
    expect(checkJail(cwd, join(cwd, "..project", "x")).allowed).toBe(true);
  });

  it("jail off lets the same calls through, and a getter toggles it live", async () => {
    const { cwd } = sandbox();
    let on = false;
    const tools = jailed(cwd, () => on);
    expect(textOf(await tools.read!.execute({ path: "../secret.txt" }, context(cwd)))).toBe("secret");
    on = true;
    expect((await tools.read!.execute({ path: "../secret.txt" }, context(cwd))).status).toBe("blocked");
  });

  it("bash under jail still runs in the cwd (jail confines file tools and bash's working directory only)", async () => {
    const { cwd } = sandbox();
    const out = await jailed(cwd).bash!.execute({ command: "pwd" }, context(cwd));
    expect(textOf(out)).toBe(cwd);
  });

  it("realLocation resolves missing tails through their nearest existing parent", () => {
    const { root, cwd } = sandbox();
    symlinkSync(root, join(cwd, "up"));
    expect(realLocation(join(cwd, "up", "x", "y.txt"))).toBe(join(root, "x", "y.txt"));
  });
});
