// `zot ext test` without the CLI: reads the manifest, starts the extension as the host does, acts
// as a host over its stdio with scripted exchanges, and returns the checklist. It never changes
// the extension's folder itself beyond what the extension does: hello_ack's data_dir is a scratch
// folder removed afterwards, and the process group is always gone when this resolves.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { terminateGroup } from "../../../process/group.ts";
import { extensionLogPath, type ZotPaths } from "../../../paths.ts";
import { loadManifest, type LoadedManifest } from "../../catalog/manifest.ts";
import { ensurePythonSdk } from "../../runtime/sdk-env.ts";
import { spawnExtension, type ExtensionProcess } from "../../runtime/spawn.ts";
import { checkCommands, checkToolCancel, checkTools, lateResultNote } from "./calls.ts";
import { ConformanceDriver } from "./driver.ts";
import { checkEvents, checkIntercepts } from "./events.ts";
import { Checklist, type ConformanceResult } from "./report.ts";
import { DEFAULT_CONFORMANCE_TIMEOUTS, type ConformanceTimeouts, type Session } from "./session.ts";
import { checkShutdown, checkProcessGroup, checkStdout } from "./shutdown.ts";
import { checkHello, checkRegistration } from "./startup.ts";

export interface ConformanceOptions {
  /** The extension folder (holding extension.json), absolute. */
  dir: string;
  /** Where its log goes: `<paths.logs>/ext-<name>.log`, as zot does. */
  paths: ZotPaths;
  /** The project directory announced in hello_ack. */
  cwd: string;
  provider: string;
  model: string;
  timeouts?: Partial<ConformanceTimeouts>;
}

/** Checks that come after the hello; skipped (with `why`) when there is no hello to go on. */
const AFTER_HELLO = ["registrations", "ready", "commands", "tools", "tool_cancel", "intercepts", "events", "shutdown"];

/** Runs every check against the extension in `options.dir`. Never throws for a broken extension. */
export async function testExtension(options: ConformanceOptions): Promise<ConformanceResult> {
  const list = new Checklist();
  let loaded: LoadedManifest;
  try {
    loaded = await loadManifest(options.dir);
  } catch (err) {
    list.fail("manifest", (err as Error).message);
    return result(list, { name: basename(options.dir), version: null, path: options.dir, log_path: null });
  }
  const { manifest } = loaded;
  const extension = { name: manifest.name, version: manifest.version ?? null, path: options.dir, log_path: null as string | null };
  if (loaded.kind === "mcp") {
    list.pass("manifest", "an MCP server: zot speaks MCP to it, not the extension protocol; check it with `zot ext doctor`");
    return result(list, extension);
  }
  if (loaded.kind === "websocket") {
    list.pass("manifest", `a WebSocket extension at ${manifest.url}: test the server's own folder with \`zot ext test\`, and the connection with \`zot ext doctor\``);
    return result(list, extension);
  }
  if (loaded.kind !== "protocol") {
    list.pass("manifest", `a ${loaded.kind}-only bundle: zot never starts it, so there is no protocol to test`);
    return result(list, extension);
  }
  if (!loaded.enabled) list.warn("manifest", "enabled is false: zot does not load it unless passed with --ext (tested anyway)");
  else list.pass("manifest", `exec ${[manifest.exec, ...(manifest.args ?? [])].join(" ")}`);

  const logPath = extensionLogPath(options.paths, manifest.name);
  // As the host does: the single binary writes zot's Python SDK out before it starts extensions.
  await ensurePythonSdk(options.paths.home);
  let driver: ConformanceDriver<ExtensionProcess>;
  try {
    // Started as the host does: its folder as cwd, its own process group, stderr to its log.
    driver = new ConformanceDriver(spawnExtension({ name: manifest.name, dir: options.dir, exec: manifest.exec!,
      args: manifest.args ?? [], logPath }));
  } catch (err) {
    // spawn throws synchronously only for arguments the OS cannot take at all.
    list.fail("hello", `cannot start: ${(err as Error).message}`);
    return result(list, extension);
  }
  extension.log_path = driver.process.logPath ?? null;
  const dataDir = mkdtempSync(join(tmpdir(), "zot-ext-test-"));
  let ids = 0;
  const s: Session = {
    dir: options.dir, manifest, driver, list, dataDir,
    timeouts: { ...DEFAULT_CONFORMANCE_TIMEOUTS, ...options.timeouts },
    info: { sessionId: "conformance-session", cwd: options.cwd, provider: options.provider, model: options.model },
    capabilities: [], commands: [], tools: [], events: [], intercepts: [],
    exitReported: false, terminated: false,
    nextId: (kind) => `conformance-${kind}-${++ids}`,
  };
  try {
    await runChecks(s);
  } finally {
    // Whatever happened above, nothing of the extension outlives the run.
    if (!driver.exitStatus() && driver.pid !== undefined) await terminateGroup(driver.pid, s.timeouts.shutdownGrace);
    await driver.process.exited;
    driver.process.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return result(list, extension);
}

async function runChecks(s: Session): Promise<void> {
  const hello = await checkHello(s);
  if (!hello) {
    for (const name of AFTER_HELLO) s.list.skip(name, "no hello");
  } else if (await checkRegistration(s)) {
    await checkCommands(s);
    await checkTools(s);
    const cancelled = await checkToolCancel(s);
    await checkIntercepts(s);
    await checkEvents(s);
    await checkShutdown(s);
    // A result for the cancelled call may come after the tool_cancel check already passed.
    const cancelCheck = s.list.checks.find((c) => c.name === "tool_cancel");
    if (cancelled && cancelCheck?.status === "passed") {
      cancelCheck.detail = cancelCheck.detail.replace(/[^;]*$/, ` ${lateResultNote(s, cancelled.id, cancelled.mark)}`);
    }
  }
  if (s.driver.pid !== undefined && !s.driver.exitStatus() && !s.terminated) {
    // No hello or a crash mid-registration: stop it the way zot stops a failed extension.
    s.terminated = true;
    await terminateGroup(s.driver.pid, s.timeouts.shutdownGrace);
  }
  await checkProcessGroup(s);
  checkStdout(s);
}

function result(list: Checklist, extension: ConformanceResult["extension"]): ConformanceResult {
  return { ok: list.ok, extension, checks: list.checks };
}
