// Test support for the extension host: temp $ZOT_HOME and project folders, extensions written
// as manifests around the programmable Node fixture, a host with short timeouts and a recorder
// of every host event, and polling helpers. Extensions are always real subprocesses.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { EventBus } from "../../lib/agent/event-bus.ts";
import type { HostEvent, ZotEvent } from "../../lib/events/index.ts";
import { ExtensionHost, type ExtensionHostOptions, type HostTimeouts } from "../../lib/extensions/host/host.ts";
import type { RunTool } from "../../lib/extensions/host/call-tool.ts";
import { pathsUnder, projectExtensionsDir, type ZotPaths } from "../../lib/paths.ts";
import { processAlive } from "../../lib/process/group.ts";
import { loadManifest } from "../../lib/extensions/catalog/manifest.ts";
import { trustProject } from "../../lib/extensions/catalog/trust/records.ts";
import { extensionDrivers } from "../../lib/extensions/runtime/drivers.ts";

export const FIXTURES = join(import.meta.dirname, "..", "fixtures", "extensions");
export const PROGRAMMABLE = join(FIXTURES, "node-programmable", "ext.mjs");

/** Short timeouts so failure paths take milliseconds, not the spec's seconds. */
export const FAST: HostTimeouts = {
  hello: 3000, mcpStart: 15_000, ready: 300, readyIdle: 250, intercept: 1500, interceptMax: 600_000, toolCall: 1500, callTool: 1500, command: 3000, shutdownGrace: 400, write: 2000,
  ping: 1000, reconnect: 50, reconnectMax: 400,
};

export interface Sandbox {
  root: string;
  /** The project directory (the host's cwd). */
  cwd: string;
  paths: ZotPaths;
  /** <cwd>/.zot/extensions */
  projectDir: string;
  /** $ZOT_HOME/extensions */
  globalDir: string;
  /** Scratch space for record files and pid files. */
  scratch: string;
  /** Shuts down every host started in this sandbox, then removes its folders. */
  cleanup(): Promise<void>;
  /** Hosts started by startHost in this sandbox. */
  hosts: Set<ExtensionHost>;
}

export async function sandbox(): Promise<Sandbox> {
  const root = await mkdtemp(join(tmpdir(), "zot-ext-"));
  const cwd = join(root, "project");
  const paths = pathsUnder(join(root, "home"));
  const projectDir = projectExtensionsDir(cwd);
  const scratch = join(root, "scratch");
  for (const dir of [cwd, projectDir, paths.extensions, scratch]) mkdirSync(dir, { recursive: true });
  const hosts = new Set<ExtensionHost>();
  return { root, cwd, paths, projectDir, globalDir: paths.extensions, scratch, hosts,
    async cleanup() {
      await Promise.all([...hosts].map((h) => h.shutdown()));
      await rm(root, { recursive: true, force: true });
    } };
}

/** The programmable fixture's configuration (see its header). */
export interface ProgramConfig {
  name: string;
  version?: string;
  capabilities?: string[];
  register?: Array<Record<string, unknown>>;
  legacy?: boolean;
  noReady?: boolean;
  noHello?: boolean;
  exitBeforeHello?: number;
  helloName?: string;
  before?: string[];
  record?: string;
  noRead?: boolean;
  ignoreShutdown?: boolean;
  ignoreTerm?: boolean;
  forkGrandchild?: string;
  pidFile?: string;
  on?: Record<string, string>;
  start?: string;
}

/**
 * Writes `<parent>/<folder>/extension.json` running a copy of the programmable fixture in that
 * folder (a sandboxed extension sees nothing of the repository); returns the folder. An extension
 * with declared permissions but no `fs` scope is granted write access to the folders of its
 * record and pid files, so tests about other permissions can still read what it saw.
 */
export function writeExtension(parent: string, folder: string, config: ProgramConfig,
  manifest: Record<string, unknown> = {}): string {
  const dir = join(parent, folder);
  mkdirSync(dir, { recursive: true });
  copyFileSync(PROGRAMMABLE, join(dir, "ext.mjs"));
  const permissions = manifest.permissions as Record<string, unknown> | undefined;
  const scratch = [config.record, config.pidFile, config.forkGrandchild].filter((p): p is string => p !== undefined).map((p) => dirname(p));
  const fs = permissions && !permissions.fs && scratch.length > 0 ? { fs: { write: [...new Set(scratch)] } } : {};
  writeFileSync(join(dir, "extension.json"), JSON.stringify({
    name: config.name, version: config.version ?? "1.0.0", exec: process.execPath,
    args: ["./ext.mjs", JSON.stringify(config)], language: "javascript", ...manifest, // run in its folder
    ...(permissions ? { permissions: { ...permissions, ...fs } } : {}),
  }, null, 2));
  return dir;
}

export interface TestHost {
  host: ExtensionHost;
  bus: EventBus;
  events: ZotEvent[];
  /** Host events of one type. */
  of<T extends HostEvent["type"]>(type: T): Array<Extract<HostEvent, { type: T }>>;
}

/** Host options; `bus` and `runTool` make up the agent the host is attached to. */
export type TestHostOptions = Partial<Omit<ExtensionHostOptions, "agent">> & { bus?: EventBus; runTool?: RunTool };

export async function startHost(sb: Sandbox, options: TestHostOptions = {}): Promise<TestHost> {
  const { bus = new EventBus({ id: "session-1", cwd: sb.cwd }), runTool, ...hostOptions } = options;
  const events: ZotEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const host = await ExtensionHost.start({
    cwd: sb.cwd, paths: sb.paths, interactive: true, drivers: extensionDrivers,
    agent: { bus, info: () => ({ provider: "anthropic", model: "test-model" }), ...(runTool ? { runTool } : {}) },
    ...hostOptions,
    timeouts: { ...FAST, ...options.timeouts },
  });
  sb.hosts.add(host);
  return {
    host, bus, events,
    of: (type) => events.filter((e) => e.type === type) as never,
  };
}

/** Polls `fn` until it returns something truthy; rejects with `what` after `timeoutMs`. */
export async function waitFor<T>(fn: () => T | undefined | null | false, what = "condition", timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The frames a programmable extension recorded (one JSON line each). */
export function readRecord(path: string): Array<Record<string, unknown>> {
  if (!existsSync(path)) return [];
  // The extension may be writing a line right now: only complete lines count.
  const text = readFileSync(path, "utf8");
  return text.slice(0, text.lastIndexOf("\n") + 1).split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Whether a pid is a running, non-zombie process. */
export const processRunning = processAlive;

export const command = (name: string, description = `${name} command`) => ({ type: "register_command", name, description });
export const tool = (name: string, extra: Record<string, unknown> = {}) =>
  ({ type: "register_tool", name, description: `${name} tool`, schema: { type: "object", properties: {} }, ...extra });

/** Records the user's trust in the sandbox's project with the extensions now in ./.zot/extensions (as `zot ext trust --project`). */
export async function trustThisProject(sb: Sandbox): Promise<void> {
  const trusted = await Promise.all(readdirSync(sb.projectDir).map(async (d) =>
    ({ manifest: (await loadManifest(join(sb.projectDir, d))).manifest, dir: join(sb.projectDir, d) })));
  await trustProject(sb.paths, sb.cwd, trusted);
}

/** Host pids of the live processes with `tag` as one of their arguments (found in /proc: pids inside a namespace differ). */
export function processesWithTag(tag: string): number[] {
  return readdirSync("/proc").filter((e) => /^\d+$/.test(e)).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(tag);
    } catch {
      return false;
    }
  }).map(Number);
}
