// `zot ext doctor` cases besides the population in test/extensions/doctor.test.ts: manifest
// errors, an extension killed by a signal before hello, and warnings.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeSandbox, runZot, writeExtension, type Sandbox } from "./support/cli.ts";

let sb: Sandbox;
beforeEach(() => { sb = makeSandbox(); });
afterEach(() => sb.cleanup());

const zot = (...args: string[]) => runZot(["ext", ...args], { cwd: sb.project, env: sb.env });

/** A node extension that says hello, registers `/<name>`, and is ready. */
const healthy = (name: string) => ({
  "run.sh": "#!/bin/sh\nexec node ./main.mjs\n",
  "main.mjs": `const send = (f) => process.stdout.write(JSON.stringify(f) + "\\n");
send({ type: "hello", name: ${JSON.stringify(name)}, version: "1.0.0" });
process.stdin.setEncoding("utf8").on("data", (chunk) => {
  for (const line of chunk.split("\\n").filter(Boolean)) {
    const msg = JSON.parse(line);
    if (msg.type === "hello_ack") { send({ type: "register_command", name: ${JSON.stringify(name)} }); send({ type: "ready" }); }
    if (msg.type === "shutdown") { send({ type: "shutdown_ack" }); process.exit(0); }
  }
});
`,
});

describe("zot ext doctor", () => {
  it("reports manifest errors, a signal before hello, and an --ext override as a warning", async () => {
    mkdirSync(join(sb.globalRoot, "broken"), { recursive: true });
    writeFileSync(join(sb.globalRoot, "broken", "extension.json"), '{ "name": "broken", ');
    writeExtension(join(sb.globalRoot, "no-exec"), { name: "no-exec", exec: undefined });
    writeExtension(join(sb.globalRoot, "killed"), { name: "killed" }, { "run.sh": "#!/bin/sh\nkill -9 $$\n" });
    const off = join(sb.base, "off");
    writeExtension(off, { name: "off", enabled: false }, healthy("off"));

    const json = await zot("doctor", "--json", "-e", off);
    expect(json.code).toBe(1);
    const result = JSON.parse(json.stdout) as { ok: boolean; extensions: Array<Record<string, unknown>> };
    expect(result.ok).toBe(false);
    const byName = Object.fromEntries(result.extensions.map((e) => [e.name, e]));
    expect(byName.broken).toMatchObject({ status: "error", path: join(sb.globalRoot, "broken"),
      errors: [expect.stringMatching(/extension\.json: invalid JSON/)] });
    expect(byName["no-exec"]).toMatchObject({ status: "error", errors: [expect.stringMatching(/exec is required/)] });
    expect(byName.killed).toMatchObject({ status: "error", ready: null,
      errors: [expect.stringMatching(/terminated by signal SIGKILL before sending hello/)] });
    expect(byName.off).toMatchObject({ scope: "explicit", status: "ok", ready: "ready", commands: ["off"],
      warnings: [expect.stringMatching(/enabled is false .* loaded because it was passed with --ext/)] });

    const text = await zot("doctor", "-e", off);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^4 extensions: 1 ok, 3 error\n/);
    expect(text.stdout).toMatch(/✗ broken {2}\[global\] {2}error\n {4}folder: .*\n {4}error: +.*invalid JSON/);
    expect(text.stdout).toMatch(/\n {4}error: +extension "killed" failed to start: was terminated by signal SIGKILL/);
    expect(text.stdout).toMatch(/✓ off 1\.0\.0 {2}\[explicit\] {2}ready in \d+ ms\n(.*\n)* {4}warning: +enabled is false/);
  });
});
