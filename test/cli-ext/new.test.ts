// `zot ext new`: every template scaffolds an extension that really speaks the protocol.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runZot, type Sandbox } from "./support/cli.ts";
import { spawnExtension } from "./support/driver.ts";

let sb: Sandbox;
beforeEach(() => { sb = makeSandbox(); });
afterEach(() => sb.cleanup());

const zot = (...args: string[]) => runZot(["ext", ...args], { cwd: sb.project, env: sb.env });

describe("zot ext new", () => {
  for (const lang of ["js", "python", "sh"]) {
    it(`the ${lang} template answers hello → registrations → ready, command_invoked and shutdown`, async () => {
      const name = `demo-${lang}`;
      const made = await zot("new", name, "--lang", lang);
      expect(made.stderr).toBe("");
      expect(made.code).toBe(0);
      const dir = join(sb.globalRoot, name);
      expect(made.stdout).toContain(dir);
      expect(made.stdout).toContain(`zot --ext ${dir}`);
      expect(made.stdout).toContain("zot ext doctor");
      expect(existsSync(join(dir, "README.md"))).toBe(true);
      const manifest = JSON.parse(readFileSync(join(dir, "extension.json"), "utf8"));
      expect(manifest).toMatchObject({ name, enabled: true });
      expect(statSync(join(dir, manifest.exec)).mode & 0o111).not.toBe(0);

      const ext = spawnExtension(dir);
      try {
        expect(await ext.next()).toMatchObject({ type: "hello", name });
        ext.send({ type: "hello_ack", protocol_version: 1, zot_version: "0.1.0", provider: "anthropic",
          model: "m", cwd: sb.project, extension_dir: dir, data_dir: dir, capabilities: ["call_tool"] });
        expect(await ext.next()).toMatchObject({ type: "register_command", name: `demo-${lang}` });
        expect(await ext.next()).toEqual({ type: "ready" });
        ext.send({ type: "event", event: "turn_start", data: { nested: { type: "x", id: "y" } } });
        ext.send({ type: "command_invoked", id: `call-"7"-${lang}`, name, args: "berlin" });
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

  it("is listed as an enabled install, and --project puts it in the project", async () => {
    expect((await zot("new", "here", "--project", "--lang", "sh")).code).toBe(0);
    expect(existsSync(join(sb.projectRoot, "here", "extension.json"))).toBe(true);
    const list = JSON.parse((await zot("list", "--json")).stdout);
    expect(list).toEqual([expect.objectContaining({ name: "here", scope: "project", enabled: true, language: "sh" })]);
  });

  it("refuses an existing folder, an unknown language and an unusable name", async () => {
    expect((await zot("new", "twice")).code).toBe(0);
    const again = await zot("new", "twice");
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^zot: .*already exists/);
    const lang = await zot("new", "other", "--lang", "cobol");
    expect(lang.code).toBe(2);
    expect(lang.stderr).toMatch(/^zot: --lang must be one of js\|python\|sh/);
    const bad = await zot("new", "../evil");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not a usable extension name/);
    expect(existsSync(join(sb.home, "evil"))).toBe(false);
    expect(existsSync(join(sb.globalRoot, "other"))).toBe(false);
  });
});
