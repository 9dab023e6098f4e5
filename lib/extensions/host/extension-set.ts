// How the host finds and starts its extensions, and the set that results: discovery through the
// trust gate (held-back project extensions are asked about once per project per run), the
// user's failure policies from config.json, one parallel start of everything spawnable, the
// merged registry of what they registered, and the diagnostics of what could not start. Apart
// from the host, which routes between the running set and the rest of zot; a reload stops the
// set and loads it again.
import type { HostEvent } from "../../events/index.ts";
import { readConfig } from "../../config.ts";
import type { ZotPaths } from "../../paths.ts";
import { BUILTIN_TOOL_NAMES } from "../../protocol/limits.ts";
import type { Candidate } from "../catalog/candidate.ts";
import { discoverExtensions } from "../catalog/discovery.ts";
import { LoadedExtension, type ExtensionSink } from "../runtime/extension.ts";
import type { DriverFactories, DriverFactory, DriverKind } from "../runtime/extension.ts";
import { absentGuards, replacedGuards, type AbsentGuard } from "../catalog/permissions/absent-guards.ts";
import type { readBundleThemes } from "../../theme/theme-file.ts";
import { passedEnv, userFailurePolicies } from "../catalog/permissions/user-policy.ts";
import { ExtensionRegistry } from "./registry.ts";
import { Reconnects } from "./reconnect.ts";
import { ensurePythonSdk } from "../runtime/sdk-env.ts";
import type { HostTrust } from "../catalog/trust/host-trust.ts";
import type { HostLimits, HostTimeouts } from "../runtime/settings.ts";

export interface ExtensionSetOptions {
  paths: ZotPaths;
  /** --ext paths: loaded first, win over discovered ones by name. */
  explicit?: string[];
  /** false for --no-ext: skip discovery (explicit ones still load). */
  discover?: boolean;
  /** Which discovered extensions may start; absent: all of them. */
  trust?: HostTrust;
  builtinCommands?: string[];
  builtinTools?: string[];
  /** What every extension of the set reports to and asks of the host. */
  sink: ExtensionSink;
  /** How each kind of extension is driven (protocol frames, MCP). */
  drivers: DriverFactories;
  timeouts: HostTimeouts;
  limits: HostLimits;
  publish(event: HostEvent): void;
  /** An `ext_error` for a spawned extension (it knows its log). */
  publishError(ext: LoadedExtension, message: string): void;
}

export class ExtensionSet {
  private found: Candidate[] = [];
  /** Reads theme bundles' files for the reports; loaded only when a theme bundle is in use. */
  themeReader: typeof readBundleThemes | undefined;
  private spawned: LoadedExtension[] = [];
  private spawnedFrom = new Map<Candidate, LoadedExtension>();
  private merged: ExtensionRegistry;
  private absent: AbsentGuard[] = [];
  /** Projects whose untrusted extensions the user was asked about in this run. */
  private readonly askedProjectTrust = new Set<string>();
  private policies: ReturnType<typeof userFailurePolicies> | undefined;
  /** The project folder of the last load: whose copy config.json's per-project env is for. */
  private loadedCwd = "";
  private readonly reconnects: Reconnects;
  private readonly factories = new Map<DriverKind, DriverFactory>();

  constructor(private readonly options: ExtensionSetOptions) {
    this.merged = this.newRegistry();
    this.reconnects = new Reconnects({
      timeouts: options.timeouts, limits: options.limits,
      restart: (ext) => this.restart(ext),
      giveUp: (ext, message) => options.publishError(ext, message),
    });
  }

  /** Every discovered folder with discovery's decision, in load order. */
  get candidates(): readonly Candidate[] {
    return this.found;
  }

  /** The spawned extensions, in load order (also while they start). */
  get loaded(): readonly LoadedExtension[] {
    return this.spawned;
  }

  get byCandidate(): ReadonlyMap<Candidate, LoadedExtension> {
    return this.spawnedFrom;
  }

  get registry(): ExtensionRegistry {
    return this.merged;
  }

  /** Fail-closed guards of config.json that this set does not run (they refuse what they guard). */
  get absentGuards(): readonly AbsentGuard[] {
    return this.absent;
  }

  /** Commands, tools or subscriptions of an extension changed. */
  rebuildRegistry(): void {
    this.merged.rebuild(this.spawned);
  }

  /**
   * Discovers the extensions of `cwd` and starts every spawnable one in parallel. Resolves when
   * each one is ready, auto-ready or failed; each failure is published, nothing rejects for an
   * extension's fault.
   */
  async load(cwd: string): Promise<void> {
    // config.json is read on every load, so /reload-ext picks up a change; alongside discovery.
    const [found, config] = await Promise.all([this.discover(cwd), readConfig(this.options.paths.config)]);
    this.loadedCwd = cwd;
    this.found = found;
    if (found.some((c) => c.decision === "bundle" && c.loaded?.kind === "theme")) this.themeReader ??= (await import("../../theme/theme-file.ts")).readBundleThemes;
    this.spawnedFrom = new Map();
    this.spawned = [];
    this.merged = this.newRegistry();
    const policies = userFailurePolicies(config);
    this.policies = policies;
    const spawning = this.found.filter((candidate) => candidate.decision === "spawn");
    await Promise.all(spawning.map((candidate) => this.factoryFor(candidate)));
    for (const candidate of spawning) {
      const ext = this.create(candidate);
      this.spawned.push(ext);
      this.spawnedFrom.set(candidate, ext);
    }
    this.absent = absentGuards(policies.byName, this.found, new Set(this.spawned.map((ext) => ext.name)), this.options.discover !== false);
    if (this.spawned.some((ext) => ext.driver.usesSdk)) await ensurePythonSdk(this.options.paths.home);
    for (const ext of this.spawned) ext.start();
    await Promise.all(this.spawned.map((ext) => ext.startupWait));
    this.rebuildRegistry();
    this.publishProblems();
    for (const ext of this.spawned) if (ext.phase === "failed") this.reconnects.schedule(ext);
  }

  /** An extension failed after its start: one that lost its connection is tried again. */
  failed(ext: LoadedExtension): void {
    this.reconnects.schedule(ext);
  }

  /** The driver factory of the candidate's kind, loaded on first use. */
  private async factoryFor(candidate: Candidate): Promise<DriverFactory> {
    const kind = driverKind(candidate);
    let factory = this.factories.get(kind);
    if (!factory) {
      factory = await this.options.drivers[kind]();
      this.factories.set(kind, factory);
    }
    return factory;
  }

  /** A record for a candidate whose kind's driver is loaded (factoryFor). */
  private create(candidate: Candidate): LoadedExtension {
    const driver = this.factories.get(driverKind(candidate))!;
    const ext = new LoadedExtension(candidate, this.options.sink, this.options.timeouts, this.options.limits, driver);
    const policies = this.policies!;
    ext.permissions.setUserFailurePolicy(policies.byName.get(ext.name));
    ext.allowEnv = passedEnv(policies, candidate, this.loadedCwd);
    const problem = policies.problems.get(ext.name) ?? policies.problem;
    if (problem) ext.warnings.push(problem);
    return ext;
  }

  /** A fresh record in place of `old` (a reconnect), started; undefined when `old` left the set. */
  private async restart(old: LoadedExtension): Promise<LoadedExtension | undefined> {
    const index = this.spawned.indexOf(old);
    if (index < 0) return undefined;
    const ext = this.create(old.candidate); // its kind's driver was loaded for the first start
    this.spawned[index] = ext;
    this.spawnedFrom.set(old.candidate, ext);
    ext.start();
    await ext.startupWait;
    this.rebuildRegistry();
    return ext;
  }

  /** Shuts every extension of the set down; returns them for the host to forget their calls. */
  async stop(): Promise<readonly LoadedExtension[]> {
    this.reconnects.cancel();
    const extensions = this.spawned;
    await Promise.all(extensions.map((ext) => ext.shutdown()));
    return extensions;
  }

  private newRegistry(): ExtensionRegistry {
    return new ExtensionRegistry(this.options.builtinCommands ?? [], this.options.builtinTools ?? [...BUILTIN_TOOL_NAMES]);
  }

  /** Discovery through the trust gate; held-back project extensions are asked about once per run. */
  private async discover(cwd: string): Promise<Candidate[]> {
    const trust = this.options.trust;
    const run = async () => discoverExtensions({
      cwd, paths: this.options.paths, explicit: this.options.explicit, discover: this.options.discover,
      ...(trust ? { trust: await trust.gate(cwd) } : {}),
    });
    const candidates = await run();
    const pending = candidates.filter((c) => c.decision === "untrusted" && c.trust?.kind === "project");
    if (pending.length === 0 || !trust?.askProject || this.askedProjectTrust.has(cwd)) return candidates;
    this.askedProjectTrust.add(cwd);
    // A project copy that would replace one of the user's fail-closed guards says so in the question.
    const policies = userFailurePolicies(await readConfig(this.options.paths.config)).byName;
    return (await trust.askProject(pending, cwd, replacedGuards(pending, policies, candidates))) ? run() : candidates;
  }

  private publishProblems(): void {
    for (const c of this.found) {
      if (c.decision === "error") this.options.publish({ type: "ext_error", extension: c.name, message: c.error ?? "invalid extension" });
      if (c.decision === "untrusted") this.options.publish({ type: "ext_notify", extension: c.name, level: "warn", message: c.trust?.message ?? "not trusted" });
    }
    for (const guard of this.absent) {
      this.options.publish({ type: "ext_error", extension: guard.name,
        message: `fail-closed guard ${guard.name} is not running (${guard.why}): ${[...guard.events].join(", ")} refused until it runs` });
    }
    for (const ext of this.spawned) {
      if (ext.phase !== "failed") continue;
      this.options.publishError(ext, ext.errors.at(-1) ?? "failed to start");
    }
  }
}

function driverKind(candidate: Candidate): DriverKind {
  const kind = candidate.loaded?.kind;
  return kind === "mcp" || kind === "websocket" || kind === "hooks" || kind === "plugin" || kind === "commands" ? kind : "protocol";
}
