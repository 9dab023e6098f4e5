// Diagnostics that say what really happened: an unsendable request, a SIGKILL after SIGTERM, a
// grandchild holding stdout, a missing #! interpreter, an exec outside the extension's folder.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extensionLogPath } from "../../lib/paths.ts";
import { processRunning, sandbox, startHost, tool, waitFor, writeExtension, type Sandbox } from "./helpers.ts";
import { hostPidIn } from "../support/host-pid.ts";

let sb: Sandbox;
beforeEach(async () => void (sb = await sandbox()));
afterEach(() => sb.cleanup());

const log = (name: string) => readFileSync(extensionLogPath(sb.paths, name), "utf8");
const ctx = () => ({ cwd: sb.cwd, signal: new AbortController().signal });

/** An sh extension in `<global>/<name>` whose script is `body` (after the #! line `shebang`). */
function shExtension(name: string, body: string, shebang = "#!/bin/sh"): string {
  const dir = join(sb.globalDir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name, version: "1.0.0", exec: "./ext.sh" }));
  writeFileSync(join(dir, "ext.sh"), `${shebang}\n${body}`);
  chmodSync(join(dir, "ext.sh"), 0o755);
  return dir;
}

describe("diagnostics that say what happened", () => {
  it("a tool_call request over the frame limit is not sent, and the model is told so, not that the extension stopped", async () => {
    writeExtension(sb.globalDir, "echo", { name: "echo", register: [tool("echo")],
      on: { tool_call: `ctx.send({type:"tool_result",id:msg.id,content:[{type:"text",text:"got " + JSON.stringify(msg.args).length}]})` } });
    const t = await startHost(sb, { limits: { maxFrameBytes: 4096 } });
    const echo = t.host.tools()[0]!;
    const big = await echo.execute({ text: "x".repeat(10_000) }, ctx());
    expect(big.isError).toBe(true);
    expect(big.content).toEqual([{ type: "text", text: expect.stringMatching(
      /^tool echo \(extension "echo"\) was not called: not sending a tool_call frame of \d+ bytes: over the 4096-byte frame limit\. The extension is still running; call it again with smaller arguments\.$/) }]);
    expect(t.host.reports()[0]).toMatchObject({ status: "ok", running: true });
    expect((await echo.execute({ text: "small" }, ctx())).content).toEqual([{ type: "text", text: "got 16" }]);
  });

  it("the SIGKILL that follows an ignored SIGTERM is logged", async () => {
    writeExtension(sb.globalDir, "stubborn", { name: "stubborn", ignoreShutdown: true, ignoreTerm: true });
    const t = await startHost(sb, { timeouts: { shutdownGrace: 200 } });
    await t.host.shutdown();
    expect(log("stubborn")).toMatch(/did not exit within 200 ms of shutdown; sending SIGTERM\n(.*\n)*\[zot\] did not exit within 200 ms of SIGTERM; sending SIGKILL to its process group\n/);
  });

  it("an extension that exits while a process it started holds its stdout says so; that process is stopped too (no PID namespace)", async () => {
    const pidFile = join(sb.scratch, "grandchild.pid");
    shExtension("forker", `echo '{"type":"hello","name":"forker","version":"1.0.0"}'
read ack
echo '{"type":"ready"}'
sleep 30 &
echo $! > ${JSON.stringify(pidFile)}
exit 3
`);
    const t = await startHost(sb, { sandbox: { enabled: false } });
    const error = await waitFor(() => t.of("ext_error")[0], "ext_error");
    expect(error.message).toMatch(/^extension "forker" stopped: exited with status 3 unexpectedly; a process it started still held its stdout open \(stopped with its process group\)/);
    expect(log("forker")).toContain("[zot] exited, but its stdout is still open: a process it started inherited it and holds it; zot stops reading it");
    const grandchild = hostPidIn(pidFile);
    await waitFor(() => !processRunning(grandchild), "the grandchild to be stopped");
  });

  it("in its PID namespace, what an extension started dies the moment it exits, stdout and all", async () => {
    const pidFile = join(sb.scratch, "grandchild.pid");
    shExtension("forker", `echo '{"type":"hello","name":"forker","version":"1.0.0"}'
read ack
echo '{"type":"ready"}'
sh -c 'read -r me rest < /proc/self/stat; echo "$me@$(readlink /proc/self/ns/pid)" > ${JSON.stringify(pidFile)}; exec sleep 30' &
while [ ! -s ${JSON.stringify(pidFile)} ]; do sleep 0.01; done
exit 3
`);
    const t = await startHost(sb);
    const error = await waitFor(() => t.of("ext_error")[0], "ext_error");
    expect(error.message).toMatch(/^extension "forker" stopped: exited with status 3 unexpectedly; its commands/);
    expect(processRunning(hostPidIn(pidFile))).toBe(false);
  });

  it("a missing #! interpreter is named, not reported as ENOENT on the script", async () => {
    shExtension("env-missing", "", "#!/usr/bin/env no-such-interpreter-zot");
    shExtension("abs-missing", "", "#!/opt/no-such/bin/ruby -w");
    shExtension("crlf", "echo hi\r\n", "#!/bin/sh\r");
    const t = await startHost(sb);
    const byName = Object.fromEntries(t.host.reports().map((r) => [r.name, r.errors[0]]));
    const script = (name: string) => join(sb.globalDir, name, "ext.sh");
    expect(byName["env-missing"]).toMatch(new RegExp(`failed to start: cannot run ${script("env-missing")}: its #! line asks /usr/bin/env for "no-such-interpreter-zot", which is not on PATH before sending hello`));
    expect(byName["abs-missing"]).toContain(`failed to start: cannot run ${script("abs-missing")}: its #! interpreter /opt/no-such/bin/ruby does not exist`);
    expect(byName.crlf).toContain(`cannot run ${script("crlf")}: its #! line ends with a carriage return (Windows line endings)`);
  });

  it("an exec that resolves outside the extension's folder is a warning in doctor and in the log; it still runs", async () => {
    const shared = join(sb.root, "shared");
    mkdirSync(shared);
    writeFileSync(join(shared, "run.sh"), `#!/bin/sh\necho '{"type":"hello","name":"borrower","version":"1.0.0"}'\nread ack\necho '{"type":"ready"}'\nread rest\n`);
    chmodSync(join(shared, "run.sh"), 0o755);
    const dir = join(sb.globalDir, "borrower");
    mkdirSync(dir);
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "borrower", exec: "../../../shared/run.sh" }));
    const t = await startHost(sb);
    const report = t.host.reports()[0]!;
    const warning = `exec "../../../shared/run.sh" resolves outside the extension's folder, to ${join(shared, "run.sh")}; it runs, but it is not part of this extension`;
    expect(report).toMatchObject({ status: "ok", ready: "ready", warnings: [warning] });
    expect(log("borrower")).toContain(`[zot] warning: ${warning}`);
  });
});
