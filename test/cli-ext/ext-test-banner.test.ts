// `zot ext test` applies zot's own rules to the lines before hello (one place: the runtime's
// first-frame rules): a banner line is ignored with a diagnostic by zot, so the checker warns and
// does not say zot refuses the extension; a frame other than hello first is refused by both.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runZot, type Sandbox } from "./support/cli.ts";

let sb: Sandbox;
let dir: string;
beforeEach(async () => {
  sb = makeSandbox();
  const made = await runZot(["ext", "new", "bannered", "--lang", "sh"], { cwd: sb.project, env: sb.env });
  expect(made.code, made.stderr).toBe(0);
  dir = join(sb.globalRoot, "bannered");
});
afterEach(() => sb.cleanup());

/** Puts `line` on stdout before everything the sh template prints. */
function printFirst(line: string): void {
  const main = join(dir, "main.sh");
  const [shebang, ...rest] = readFileSync(main, "utf8").split("\n");
  writeFileSync(main, [shebang, `printf '%s\\n' '${line}'`, ...rest].join("\n"));
}

interface Check { name: string; status: string; detail: string }

async function checks(): Promise<Check[]> {
  const test = await runZot(["ext", "test", dir, "--json"], { cwd: sb.project, env: sb.env });
  return JSON.parse(test.stdout).checks;
}

describe("lines before hello: ext test and zot agree", () => {
  it("a banner line before hello: zot loads the extension, and ext test warns instead of saying zot refuses it", async () => {
    printFirst("bannered starting up");
    const doctor = await runZot(["ext", "doctor", "--json"], { cwd: sb.project, env: sb.env });
    expect(JSON.parse(doctor.stdout).extensions[0]).toMatchObject({ name: "bannered", status: "ok" });
    const list = await checks();
    const byName = Object.fromEntries(list.map((c) => [c.name, c]));
    expect(byName.hello).toMatchObject({ status: "passed" });
    expect(byName["before hello"]).toMatchObject({ status: "warning", detail: expect.stringMatching(/zot loads the extension, ignoring and logging them/) });
    expect(list.map((c) => c.detail).join("\n")).not.toMatch(/zot refuses/);
  });

  it("a frame other than hello first: both refuse it, in the same words", async () => {
    printFirst('{"type":"ready"}');
    const doctor = await runZot(["ext", "doctor", "--json"], { cwd: sb.project, env: sb.env });
    const report = JSON.parse(doctor.stdout).extensions[0];
    expect(report).toMatchObject({ name: "bannered", status: "error" });
    expect(report.errors[0]).toContain("sent a ready frame before hello (hello must be the first frame)");
    const hello = (await checks()).find((c) => c.name === "hello")!;
    expect(hello).toMatchObject({ status: "failed", detail: expect.stringMatching(/^sent a ready frame before hello \(hello must be the first frame\) \(zot refuses the extension\)/) });
  });
});
