// One extension must never take every model request down: registrations a provider would
// refuse are dropped at the door, and a tool a provider refuses anyway is dropped for the
// session and the request is sent again without it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { extensionLogPath, pathsUnder } from "../../lib/paths.ts";
import { tool, writeExtension } from "../extensions/helpers.ts";
import { jsonLines, makeWorld, ROOT, type World } from "./support.ts";

const HELLO_PY = join(ROOT, "test", "fixtures", "extensions", "hello-py");

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const toolNames = (body: any): string[] => (body.tools ?? []).map((t: any) => t.name ?? t.function?.name);

/** An extension with three tools no provider accepts and one good one. */
function badExtension(w: World): string {
  return writeExtension(join(w.cwd, ".."), "bad", { name: "bad", register: [
    tool("bad name!"), tool("x".repeat(200)), tool("stringy", { schema: { type: "string" } }), tool("good"),
  ] });
}

describe("registrations a provider would refuse", () => {
  it("are dropped with an ext_error while /hellopy of a healthy extension still works", async () => {
    world = await makeWorld([{ text: "Hello there." }]);
    const r = await world.run(["-p", "-e", HELLO_PY, "-e", badExtension(world), "/hellopy"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Hello there.\n");
    expect(r.stderr).toContain('[bad] error: extension "bad": tool "bad name!" was dropped: a tool name must match ^[a-zA-Z0-9_-]{1,64}$');
    expect(r.stderr).toContain('[bad] error: extension "bad": tool "stringy" was dropped: its schema must be a JSON Schema object with "type": "object"');
    expect(world.server.requests).toHaveLength(1);
    const offered = toolNames(world.server.requests[0]!.body);
    expect(offered).toContain("good");
    expect(offered.filter((n) => n === "bad name!" || n === "stringy" || n.length > 64)).toEqual([]);
  });

  it("json mode reports each dropped registration as an ext_error line", async () => {
    world = await makeWorld([{ text: "ok" }]);
    const r = await world.run(["--mode", "json", "-e", badExtension(world), "hi"]);
    expect(r.code).toBe(0);
    const errors = jsonLines(r.stdout).filter((e) => e.type === "ext_error");
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^extension "bad": tool "bad name!" was dropped: /),
      expect.stringMatching(/^extension "bad": tool "x{80}…" \(200 characters\) was dropped: /),
      expect.stringMatching(/^extension "bad": tool "stringy" was dropped: /),
    ]);
    expect(errors[0]).toMatchObject({ extension: "bad", log_path: expect.stringContaining("ext-bad.log") });
  });
});

describe("a tool the provider refuses with an HTTP 400", () => {
  for (const wire of ["anthropic", "openai"] as const) {
    it(`is dropped for the session, with a warning, and the request is sent once more (${wire})`, async () => {
      world = await makeWorld([{ type: "reject_tool", tool: "flaky" }, { text: "answered" }, { text: "again" }], wire);
      const ext = writeExtension(join(world.cwd, ".."), "picky", { name: "picky", register: [tool("flaky"), tool("fine")] });
      const r = await world.run(["-p", "-e", ext, "hi"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("answered\n");
      expect(r.stderr).toMatch(/zot: the model provider refused tool "flaky" \(HTTP 400 .*\); it is dropped for this session and the request is sent again without it/);
      expect(world.server.requests).toHaveLength(2);
      expect(toolNames(world.server.requests[0]!.body)).toContain("flaky");
      expect(toolNames(world.server.requests[1]!.body)).not.toContain("flaky");
      expect(toolNames(world.server.requests[1]!.body)).toContain("fine");
      const log = readFileSync(extensionLogPath(pathsUnder(world.home), "picky"), "utf8");
      expect(log).toContain('warning: the model provider refused tool "flaky"');
    });
  }

  it("is not retried when the blamed tool is a built-in: the run fails with the provider's error", async () => {
    world = await makeWorld([{ type: "reject_tool", tool: "read" }, { text: "never sent" }]);
    const r = await world.run(["-p", "hi"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/zot: HTTP 400 invalid_request_error: tools\.0\.custom\.input_schema/);
    expect(world.server.requests).toHaveLength(1);
  });
});
