// No process escapes: a daemon an extension starts with setsid() (its own session and process
// group, so the group kill misses it) is stopped when zot shuts the extension down.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extensionLogPath } from "../../../lib/paths.ts";
import { PROGRAMMABLE, processesWithTag, processRunning, sandbox, startHost, waitFor, writeExtension, type Sandbox } from "../helpers.ts";
import { hostPidIn } from "../../support/host-pid.ts";

let sb: Sandbox;
const strays: number[] = [];
beforeEach(async () => void (sb = await sandbox()));
afterEach(async () => {
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone, as it should be
    }
  }
  await sb.cleanup();
});

/** Starts a daemon in a new session (detached: setsid) that outlives the extension, writing its pid to `pidFile`. */
const daemonize = (pidFile: string, keepEnv = true) => `
  const { spawn } = process.getBuiltinModule("node:child_process");
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"],
    { detached: true, stdio: "ignore", ${keepEnv ? "" : "env: { PATH: process.env.PATH },"} });
  child.unref();
  ctx.fs.writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));
`;

async function daemonPid(pidFile: string): Promise<number> {
  await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").length > 0, "the daemon's pid file");
  const pid = hostPidIn(pidFile);
  strays.push(pid);
  expect(processRunning(pid)).toBe(true);
  return pid;
}

describe("descendants that leave the process group", () => {
  // Without a PID namespace (--no-sandbox, or no bubblewrap), zot finds such daemons by a marker in their environment.
  it.runIf(process.platform === "linux")("without a PID namespace, a setsid daemon of a full-access extension is stopped at shutdown", async () => {
    const pidFile = join(sb.scratch, "daemon.pid");
    writeExtension(sb.globalDir, "forker", { name: "forker", start: daemonize(pidFile) });
    const t = await startHost(sb, { sandbox: { enabled: false } });
    const pid = await daemonPid(pidFile);
    await t.host.shutdown();
    await waitFor(() => !processRunning(pid), "the daemon to be gone", 2000);
    expect(readFileSync(extensionLogPath(sb.paths, "forker"), "utf8")).toContain("had left its process group (setsid)");
  });

  it.runIf(process.platform === "linux")("without a PID namespace, a daemon that dropped the marker from its environment is stopped too: the tree was remembered before the stop", async () => {
    const pidFile = join(sb.scratch, "daemon.pid");
    writeExtension(sb.globalDir, "forker", { name: "forker", start: daemonize(pidFile, false) });
    const t = await startHost(sb, { sandbox: { enabled: false } });
    const pid = await daemonPid(pidFile);
    await t.host.shutdown();
    await waitFor(() => !processRunning(pid), "the daemon to be gone", 2000);
  });

  it("a setsid daemon of a sandboxed extension dies with its PID namespace", async () => {
    const dir = join(sb.globalDir, "boxed");
    mkdirSync(dir, { recursive: true });
    copyFileSync(PROGRAMMABLE, join(dir, "ext.mjs"));
    // Pids inside the sandbox are the namespace's: the daemon is found on the host by a tag in its command line.
    const tag = `zot-daemon-${process.pid}-${Date.now()}`;
    const started = join(dir, "daemon.started");
    const daemon = `require("node:fs").writeFileSync(${JSON.stringify(started)}, "up"); setInterval(() => {}, 1000)`;
    const config = { name: "boxed", start: `
      const { spawn } = process.getBuiltinModule("node:child_process");
      spawn(process.execPath, ["-e", ${JSON.stringify(daemon)}, ${JSON.stringify(tag)}], { detached: true, stdio: "ignore" }).unref();` };
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "boxed", exec: process.execPath,
      args: [join(dir, "ext.mjs"), JSON.stringify(config)], permissions: { fs: { write: ["{extension}"] } } }));
    const t = await startHost(sb);
    expect(t.host.reports()[0]!.errors, readFileSync(extensionLogPath(sb.paths, "boxed"), "utf8")).toEqual([]);
    await waitFor(() => existsSync(started), "the daemon to start");
    expect(processesWithTag(tag)).toHaveLength(1);
    await t.host.shutdown();
    await waitFor(() => processesWithTag(tag).length === 0, "the sandboxed daemon to be gone", 2000);
  });
});
