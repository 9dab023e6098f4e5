// The bubblewrap probe (can bwrap create its namespaces here?) runs once per bwrap and process,
// as a subprocess the event loop does not wait on. Observed through a bwrap wrapper script that
// logs each invocation before running the real bubblewrap.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { EventBus } from "../../../lib/agent/event-bus.ts";
import { findOnPath } from "../../../lib/extensions/runtime/exec-resolve.ts";
import { ExtensionHost } from "../../../lib/extensions/host/host.ts";
import { FAST, PROGRAMMABLE, readRecord, sandbox, startHost, tool, waitFor, writeExtension, type Sandbox } from "../helpers.ts";
import { extensionDrivers } from "../../../lib/extensions/runtime/drivers.ts";

let sb: Sandbox;
beforeEach(async () => void (sb = await sandbox()));
afterEach(async () => sb.cleanup());

/** A sandboxed extension (network: none) registering tool `name`, its code in its own folder. */
function sandboxedExtension(name: string): void {
  const dir = join(sb.globalDir, name);
  mkdirSync(dir, { recursive: true });
  copyFileSync(PROGRAMMABLE, join(dir, "ext.mjs"));
  writeFileSync(join(dir, "extension.json"), JSON.stringify({
    name, exec: process.execPath, args: [join(dir, "ext.mjs"), JSON.stringify({ name, register: [tool(name)] })],
    permissions: { network: "none" },
  }));
}

/**
 * A bwrap that appends its arguments to `log` and runs the real one. With `gate`, the probe of
 * the confined sandbox (the trivial one running `true`) first waits, up to 5 s, for that file to exist.
 */
function loggingBwrap(log: string, gate?: string): string {
  const real = findOnPath("bwrap");
  expect(real, "install bubblewrap: apt-get install bubblewrap").toBeTruthy();
  const wait = gate
    ? `case "$*" in *--cap-drop*" -- true") i=0; while [ ! -e '${gate}' ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i+1)); done;; esac\n`
    : "";
  const path = join(sb.root, "logging-bwrap");
  writeFileSync(path, `#!/bin/sh\necho "$*" >> '${log}'\n${wait}exec '${real}' "$@"\n`, { mode: 0o755 });
  return path;
}

const invocations = (log: string) => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []);
const probes = (log: string) => invocations(log).filter((line) => line.endsWith("-- true"));

it("two sandboxed extensions starting together probe bubblewrap once", async () => {
  const log = join(sb.root, "bwrap.log");
  sandboxedExtension("first");
  sandboxedExtension("second");
  const t = await startHost(sb, { sandbox: { enabled: true, options: { bwrap: loggingBwrap(log) } } });
  expect(t.host.tools().map((x) => x.name).sort()).toEqual(["first", "second"]);
  expect(probes(log)).toHaveLength(1);
  expect(invocations(log)).toHaveLength(3); // the probe, then one sandbox per extension
  await t.host.shutdown();

  // A later start in the same process (a reload, another host) reuses the answer.
  const again = await startHost(sb, { sandbox: { enabled: true, options: { bwrap: loggingBwrap(log) } } });
  expect(again.host.tools()).toHaveLength(2);
  expect(probes(log)).toHaveLength(1);
});

it("while bubblewrap is probed the event loop runs: a full-access extension finishes its handshake meanwhile", async () => {
  const log = join(sb.root, "bwrap.log");
  const gate = join(sb.root, "probe-may-finish");
  const record = join(sb.root, "plain.jsonl");
  sandboxedExtension("boxed");
  writeExtension(sb.globalDir, "plain", { name: "plain", register: [tool("plain")], record });
  const starting = startHost(sb, { sandbox: { enabled: true, options: { bwrap: loggingBwrap(log, gate) } } });
  // A probe that blocked the process would stall these polls until it gave up (5 s).
  await waitFor(() => probes(log).some((line) => line.includes("--cap-drop")), "the probe to start");
  await waitFor(() => readRecord(record).some((frame) => frame.type === "hello_ack"), "the full-access extension's handshake");
  // Its PID namespace has its own probe; the sandboxed one still waits for the confined probe.
  expect(invocations(log).filter((line) => !line.endsWith("-- true"))).toEqual([expect.stringContaining("--bind / /")]);
  writeFileSync(gate, "");
  const t = await starting;
  expect(t.host.tools().map((x) => x.name).sort()).toEqual(["boxed", "plain"]);
  expect(probes(log)).toHaveLength(2);
});

it("an extension whose host shuts down while bubblewrap is probed never starts", async () => {
  const log = join(sb.root, "bwrap.log");
  const gate = join(sb.root, "probe-may-finish");
  sandboxedExtension("boxed");
  const sandboxSettings = { enabled: true, options: { bwrap: loggingBwrap(log, gate) } };
  const host = new ExtensionHost({ cwd: sb.cwd, paths: sb.paths, interactive: true, timeouts: FAST, sandbox: sandboxSettings, drivers: extensionDrivers,
    agent: { bus: new EventBus({ id: "session-1", cwd: sb.cwd }), info: () => ({ provider: "anthropic", model: "test-model" }) } });
  sb.hosts.add(host);
  const starting = host.start();
  await waitFor(() => probes(log).length === 1, "the probe to start");
  await host.shutdown();
  await starting;
  writeFileSync(gate, "");
  // A second host waits for the same probe, after the first one's extension has seen its answer.
  const later = await startHost(sb, { sandbox: sandboxSettings });
  expect(later.host.tools().map((x) => x.name)).toEqual(["boxed"]);
  expect(invocations(log)).toHaveLength(2); // the probe and the later host's sandbox: none for the stopped one
  expect(host.tools()).toEqual([]);
});
