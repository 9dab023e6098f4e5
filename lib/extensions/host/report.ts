// The per-extension report behind `zot ext doctor` (host.md's JSON shape, fields may be added):
// what discovery decided, how startup went, what was registered, and what went wrong. `--json`
// writes it out as is, hence its snake_case fields.
import { extensionLogPath, type ZotPaths } from "../../paths.ts";
import { runsAsExtension, type BundleKind, type Manifest } from "../catalog/manifest.ts";
import { grantFromManifest, grantJson, type GrantJson, type ManifestPermissions } from "../catalog/permissions/manifest-permissions.ts";
import type { RefusalKind } from "../catalog/permissions/extension-permissions.ts";
import { INTERCEPT_TIMEOUT_MS } from "../../protocol/limits.ts";
import { parseHooks } from "../catalog/hook-settings.ts";
import { pluginOffers } from "../catalog/plugin-manifest.ts";
import { interceptorReports, type InterceptorProbe, type InterceptorReport } from "./intercept-probe.ts";
import type { Candidate, DiscoveryScope } from "../catalog/candidate.ts";
import type { LoadedExtension, ReadyMode } from "../runtime/extension.ts";
import type { IsolationReport } from "../runtime/spawn.ts";
import type { ExtensionRegistry } from "./registry.ts";
import type { McpServerDescription } from "../runtime/extension.ts";
import { describeServer } from "../catalog/manifest-mcp.ts";
import { remoteWarnings } from "../catalog/manifest-url.ts";
import type { readBundleThemes } from "../../theme/theme-file.ts";

/** What an MCP extension's server said about itself (server tool names, before prefixing). */
export interface McpReport {
  transport: "stdio" | "http";
  server: string | null;
  version: string | null;
  tools: string[];
  /** The zot name of each server tool that registered, by server name. */
  tool_names: Record<string, string>;
  prompts: string[];
  resources: string[];
}

/** A WebSocket extension's connection (snake_case: written out as is). */
export interface RemoteReport {
  url: string;
  /** The upgrade request → open, and open → ready, in ms; null when it did not get that far. */
  connect_ms: number | null;
  handshake_ms: number | null;
}

export type ReportStatus = "ok" | "error" | "disabled" | "shadowed" | "needs_approval";

export interface HookReport {
  event: string;
  matcher: string;
  if: string | null;
  command: string;
  timeout_s: number;
  async: boolean;
}

export interface ExtensionReport {
  name: string;
  path: string;
  scope: DiscoveryScope;
  status: ReportStatus;
  ready: ReadyMode;
  startup_ms: number | null;
  /** protocol extensions are spawned; theme and skills bundles never are. */
  kind: BundleKind | null;
  version: string | null;
  language: string | null;
  exec: string | null;
  commands: string[];
  tools: Array<{ name: string; deferred: boolean; interactive: boolean }>;
  subscriptions: { events: string[]; intercept: string[] };
  conflicts: string[];
  warnings: string[];
  errors: string[];
  /** Spawned and still running when the report was made (an `error` status may still run). */
  running: boolean;
  log_path: string | null;
  /** For a shadowed extension: the folder whose copy of the name is used. */
  shadowed_by?: string;
  /** The file that declared it when not a folder's manifest (a project's .mcp.json). */
  source?: string;
  /** For an MCP extension. */
  mcp?: McpReport;
  /** For a WebSocket extension. */
  remote?: RemoteReport;
  /** A theme bundle's themes, by name. */
  themes?: string[];
  /** Hooks in Claude Code's shape: each command hook, what it runs on, and its timeout. */
  hooks?: HookReport[];
  /** A Claude Code plugin's agent types, skills and output styles, by name. */
  plugin?: { agents: string[]; skills: string[]; output_styles: string[] };
  /** null when the manifest could not be read. */
  permissions: PermissionsReport | null;
  /** Each intercepted event: its failure policy and, in doctor, how its probe went. */
  interceptors: InterceptorReport[];
  /** How its process was isolated (sandbox, mounts, PID namespace); null when it was not started. */
  isolation: IsolationReport | null;
}

/** Requested (the manifest's `permissions`, null: none, full access) against granted and refused. */
export interface PermissionsReport {
  full_access: boolean;
  requested: ManifestPermissions | null;
  granted: GrantJson;
  /** What the extension asked for at run time outside its grant (subscriptions, tool calls, UI frames). */
  refused: Record<RefusalKind, string[]>;
}

function permissionsOf(manifest: Manifest | undefined, ext?: LoadedExtension): PermissionsReport | null {
  if (!manifest) return null;
  const granted = grantJson(ext?.permissions.grant ?? grantFromManifest(manifest.permissions));
  const refused = ext?.permissions.refused;
  return {
    full_access: granted.full_access, requested: manifest.permissions ?? null, granted,
    refused: { tools: [...refused?.tools ?? []], events: [...refused?.events ?? []], intercept: [...refused?.intercept ?? []],
      ui: [...refused?.ui ?? []] },
  };
}

function base(c: Candidate, paths: ZotPaths): ExtensionReport {
  const manifest = c.loaded?.manifest;
  return {
    name: c.name,
    path: c.dir,
    scope: c.scope,
    status: "ok",
    ready: null,
    startup_ms: null,
    kind: c.loaded?.kind ?? null,
    version: manifest?.version ?? null,
    language: manifest?.language ?? null,
    exec: manifest?.exec ?? manifest?.url ?? (manifest?.mcp ? describeServer(manifest.mcp) : null),
    commands: [],
    tools: [],
    subscriptions: { events: [], intercept: [] },
    conflicts: [],
    warnings: [...c.warnings, ...(manifest?.url ? remoteWarnings(manifest) : [])],
    errors: c.error ? [c.error] : [],
    running: false,
    log_path: runsAsExtension(c.loaded?.kind) ? extensionLogPath(paths, c.name) : null,
    permissions: permissionsOf(manifest),
    interceptors: [],
    isolation: null,
    ...(c.source ? { source: c.source } : {}),
    ...(manifest?.hooks !== undefined ? { hooks: hooksReport(manifest.hooks, c.source ?? c.dir) } : {}),
    ...(c.loaded?.kind === "plugin" ? pluginReport(c.dir) : {}),
  };
}

function pluginReport(dir: string): Pick<ExtensionReport, "plugin"> {
  const offers = pluginOffers(dir);
  return offers ? { plugin: offers } : {};
}

/** A hooks bundle's hooks as doctor lists them (what cannot run is among its warnings once it started). */
function hooksReport(hooks: unknown, where: string): HookReport[] {
  return parseHooks(hooks, where).hooks
    .map((h) => ({ event: h.event, matcher: h.matcher, if: h.if ?? null, command: h.command, timeout_s: h.timeoutS, async: h.async }));
}

/** One report per discovery candidate, in load order. */
export function buildReports(candidates: readonly Candidate[], loaded: ReadonlyMap<Candidate, LoadedExtension>, registry: ExtensionRegistry,
  paths: ZotPaths, probes: (ext: LoadedExtension) => InterceptorProbe[] | undefined = () => undefined,
  readThemes?: typeof readBundleThemes, interceptTimeoutMs = INTERCEPT_TIMEOUT_MS): ExtensionReport[] {
  return candidates.map((c) => {
    const report = base(c, paths);
    switch (c.decision) {
      case "error":
        report.status = "error";
        return report;
      case "disabled":
        report.status = "disabled";
        report.warnings.push("disabled in extension.json (enable it with `zot ext enable`)");
        return report;
      case "shadowed":
        report.status = "shadowed";
        report.shadowed_by = c.shadowedBy;
        report.warnings.push(`shadowed by the extension of the same name in ${c.shadowedBy}`);
        return report;
      case "bundle":
        if (c.loaded?.kind === "theme" && readThemes) addThemes(report, readThemes);
        return report;
      case "untrusted":
        report.status = "needs_approval";
        report.warnings.push(c.trust?.message ?? "not trusted");
        return report;
    }
    const ext = loaded.get(c);
    if (!ext) return report;
    // A dropped registration is an error too, although the rest of the extension runs.
    report.status = ext.phase === "failed" || ext.errors.length > 0 ? "error" : "ok";
    report.ready = ext.readyMode;
    report.startup_ms = ext.startupMs;
    report.version = ext.version ?? report.version;
    report.commands = ext.commands.map((cmd) => cmd.name);
    report.tools = ext.tools.map((t) => ({ name: t.name, deferred: t.deferred === true, interactive: t.interactive === true }));
    report.subscriptions = { events: [...ext.events], intercept: [...ext.intercepts] };
    report.conflicts = [...registry.conflicts(ext)];
    report.warnings = [...ext.warnings];
    report.errors = [...ext.errors];
    report.running = ext.alive;
    report.log_path = ext.logPath ?? report.log_path;
    report.permissions = permissionsOf(c.loaded?.manifest, ext);
    report.interceptors = interceptorReports(ext, probes(ext), interceptTimeoutMs);
    report.isolation = ext.driver.isolation;
    const described = ext.driver.describe?.();
    if (described && "mcp" in described) report.mcp = mcpReport(described.mcp);
    if (described && "remote" in described) {
      const { url, connectMs, handshakeMs } = described.remote;
      report.remote = { url, connect_ms: connectMs, handshake_ms: handshakeMs };
    }
    return report;
  });
}

/** A theme bundle's themes by name, with what is wrong in its theme files (a bad colour is an error). */
function addThemes(report: ExtensionReport, readThemes: typeof readBundleThemes): void {
  const { themes, warnings, errors } = readThemes(report.path);
  report.themes = themes.map((t) => t.name);
  report.warnings.push(...warnings);
  report.errors.push(...errors);
  if (errors.length > 0) report.status = "error";
}

function mcpReport(server: McpServerDescription): McpReport {
  const { transport, version, tools, prompts, resources } = server;
  return { transport, server: server.server, version, tools,
    tool_names: Object.fromEntries([...server.toolNames].map(([zot, name]) => [name, zot])), prompts, resources };
}
