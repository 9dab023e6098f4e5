// `zot ext doctor [--json] [-e PATH…] [--cwd PATH]`: runs the real discovery and startup path
// and reports, per extension, what happened. Exit 1 when any extension failed to load, 2 on a
// usage error.
import { resolve } from "node:path";
import { type ArgsDef, defineCommand } from "citty";
import { printable } from "../../terminal-text.ts";
import { BUILTIN_COMMANDS } from "../../app/builtin-commands.ts";
import { savedModel } from "../../app/settings.ts";
import { readConfig } from "../../config.ts";
import { diagnoseExtensions, type DoctorResult } from "../../extensions/host/doctor.ts";
import type { ExtensionReport } from "../../extensions/host/report.ts";
import { runsAsExtension } from "../../extensions/catalog/manifest.ts";
import { describeGrant, grantFromJson, grantFromManifest } from "../../extensions/catalog/permissions/manifest-permissions.ts";
import { projectExtensionsDir, zotPaths } from "../../paths.ts";
import { checkArgs, parseChecked, takeRepeated, UsageError } from "../args.ts";
import { extensionDrivers } from "../../extensions/runtime/drivers.ts";

interface DoctorArgs {
  json: boolean;
  explicit: string[];
  cwd: string;
}

const DOCTOR_ARGS = {
  json: { type: "boolean", description: "Print one JSON object instead of a report" },
  ext: { type: "string", alias: "e", valueHint: "path", description: "Also load this extension folder (repeatable)" },
  cwd: { type: "string", valueHint: "path", description: "Project folder (default: the current directory)" },
} as const satisfies ArgsDef;

/** Checked strictly like every subcommand; `-e/--ext` is collected first, since citty keeps only its last value. */
export function parseDoctorArgs(argv: string[]): DoctorArgs {
  const present = checkArgs(argv, DOCTOR_ARGS);
  const { values, rest } = takeRepeated(argv, DOCTOR_ARGS, ["ext"]);
  const args = parseChecked(rest, DOCTOR_ARGS, present);
  const ext = values.ext!;
  if (ext.includes("")) throw new UsageError("--ext needs a value");
  if (args.cwd === "") throw new UsageError("--cwd needs a value");
  return {
    json: args.json === true,
    explicit: ext.map((dir) => resolve(dir)), // like zot: against the shell's directory
    cwd: resolve(typeof args.cwd === "string" ? args.cwd : process.cwd()),
  };
}

const MARK: Record<ExtensionReport["status"], string> = { ok: "✓", error: "✗", disabled: "-", shadowed: "~", needs_approval: "!" };

function indent(text: string, prefix: string): string {
  return text.split("\n").map((line, i) => (i === 0 ? line : `${" ".repeat(prefix.length)}${line}`)).join("\n");
}

function describeReady(r: ExtensionReport): string {
  if (r.status === "needs_approval") return "needs approval (not started)";
  if (r.status !== "ok" && r.status !== "error") return r.status === "shadowed" ? `shadowed by ${r.shadowed_by}` : "disabled";
  if (r.kind && !runsAsExtension(r.kind)) return `${r.kind} bundle (runs no code)${r.themes?.length ? `: ${r.themes.join(", ")}` : ""}`;
  const ms = r.startup_ms === null ? "" : ` in ${r.startup_ms} ms`;
  // Running with errors: some registrations were dropped, the rest works.
  const after = (state: string) => (r.status === "ok" ? state : r.running ? `${state} with errors` : `error after ${state}`);
  switch (r.ready) {
    case "ready": return `${after("ready")}${ms}`;
    case "auto": return `${after("auto-ready")}${ms} (never sent ready)`;
    case "timeout": return "error: no hello";
    default: return "error";
  }
}

/** "access:" (full or declared), what is granted, and what was asked for beyond it. */
function permissionLines(report: ExtensionReport): Array<[string, string]> {
  const p = report.permissions;
  if (!p) return [];
  if (p.full_access) return [["access:", "full access (no permissions declared)"]];
  const requested = describeGrant(grantFromManifest(p.requested ?? {}));
  const granted = describeGrant(grantFromJson(p.granted));
  const same = requested.join("\n") === granted.join("\n");
  const lines: Array<[string, string]> = [["access:", same ? "declared permissions, granted as requested" : "declared permissions"]];
  if (!same) lines.push(["requested:", requested.join("\n")]);
  lines.push(["granted:", granted.join("\n")]);
  const refused = [
    ...p.refused.tools.map((t) => `call_tool ${t}`), ...p.refused.events.map((e) => `event ${e}`),
    ...p.refused.intercept.map((e) => `intercept ${e}`), ...p.refused.ui.map((u) => `ui ${u}`),
  ];
  if (refused.length) lines.push(["refused:", refused.join(", ")]);
  return lines;
}

const REWRITTEN: Record<string, string> = {
  tool_call: "tool arguments", assistant_message: "the assistant's text", before_agent_start: "the system prompt",
  tool_result: "tool results",
};

function describeGuard(g: ExtensionReport["interceptors"][number]): string {
  const policy = `${g.event}: on_failure ${g.on_failure}${g.on_failure_from === "default" ? " (default)" : ` (${g.on_failure_from})`}`;
  const rewrites = (g.rewrote || g.rewrites > 0 ? `, rewrites ${REWRITTEN[g.event] ?? "what it intercepts"}` : "")
    + (g.timeout_requested ? `, deadline ${g.timeout_ms} ms (asked for)` : "");
  if (g.probe === null) return `${policy}${rewrites}`;
  const probe = g.probe === "answered" ? `answered in ${g.latency_ms} ms` : g.probe === "timed_out" ? `no answer within ${g.latency_ms} ms`
    : `failed after ${g.latency_ms} ms`;
  return `${policy}, ${probe}${rewrites}`;
}

/** How its process runs: the sandbox and its mounts, or full access, and whether in a PID namespace. */
function isolationLines(report: ExtensionReport): Array<[string, string]> {
  const i = report.isolation;
  if (!i) return [];
  const pid = i.pid_namespace ? "in a PID namespace of its own" : `no PID namespace${i.note ? ` (${i.note.replace(/^no PID namespace: /, "")})` : ""}`;
  if (!i.sandbox) return [["process:", `full access, ${pid}`]];
  const lines: Array<[string, string]> = [["process:", `sandboxed with ${i.sandbox}, ${pid}, network ${i.network ? "allowed" : "none"}`],
    ["mounts ro:", (i.read_only ?? []).join("\n")], ["mounts rw:", (i.read_write ?? []).join("\n")]];
  if (i.hidden.length) lines.push(["hidden:", i.hidden.join("\n")]);
  return lines;
}

export function renderReport(report: ExtensionReport): string {
  const lines = [`${MARK[report.status]} ${report.name}${report.version ? ` ${report.version}` : ""}  [${report.scope}]  ${describeReady(report)}`];
  const field = (label: string, value: string) => lines.push(indent(`    ${label.padEnd(11)}${value}`, `    ${"".padEnd(11)}`));
  field("folder:", report.path);
  if (report.source) field("declared:", report.source);
  if (report.mcp) {
    field(report.mcp.transport === "http" ? "url:" : "command:", report.exec ?? "");
    const m = report.mcp;
    if (m.server) field("server:", `${m.server}${m.version ? ` ${m.version}` : ""} (MCP, ${m.transport})`);
    const list = (names: string[]) => (names.length ? names.join(", ") : "none");
    // A tool whose zot name is not the plain one (sanitized, or kept apart from a twin) shows both.
    const plain = (tool: string) => m.tool_names[tool] === undefined || m.tool_names[tool] === `${report.name}_${tool}` || m.tool_names[tool] === tool;
    field("mcp tools:", list(m.tools.map((t) => (plain(t) ? t : `${t} (as ${m.tool_names[t]})`))));
    field("prompts:", list(m.prompts));
    field("resources:", list(m.resources));
  } else if (report.kind === "websocket") {
    field("url:", report.exec ?? "");
    const r = report.remote;
    if (r?.connect_ms != null) field("connect:", `${r.connect_ms} ms${r.handshake_ms != null ? `, handshake ${r.handshake_ms} ms (hello → ready)` : ""}`);
    field("process:", "remote: files, network and exec are the server's; zot enforces its tools, events, intercept and ui grants");
  } else if (report.exec) field("exec:", `${report.exec}${report.language ? ` (${report.language})` : ""}`);
  for (const h of report.hooks ?? []) {
    const on = `${h.event}${h.matcher ? ` [${h.matcher}]` : ""}${h.if ? ` if ${h.if}` : ""}`;
    field("hook:", `${on}: ${h.command} (timeout ${h.timeout_s} s${h.async ? ", async" : ""})`);
  }
  if (report.commands.length) field("commands:", report.commands.map((c) => `/${c}`).join(", "));
  if (report.plugin?.agents.length) field("agents:", report.plugin.agents.join(", "));
  if (report.plugin?.skills.length) field("skills:", report.plugin.skills.join(", "));
  if (report.plugin?.output_styles.length) field("styles:", report.plugin.output_styles.join(", "));
  if (report.tools.length) {
    field("tools:", report.tools.map((t) => `${t.name}${t.deferred ? " (deferred)" : ""}${t.interactive ? " (interactive)" : ""}`).join(", "));
  }
  if (report.subscriptions.events.length) field("events:", report.subscriptions.events.join(", "));
  if (report.subscriptions.intercept.length) field("intercept:", report.subscriptions.intercept.join(", "));
  for (const line of permissionLines(report)) field(line[0], line[1]);
  for (const line of isolationLines(report)) field(line[0], line[1]);
  for (const guard of report.interceptors) field("guard:", describeGuard(guard));
  for (const c of report.conflicts) field("conflict:", c);
  for (const w of report.warnings) field("warning:", w);
  for (const e of report.errors) field("error:", e);
  if (report.log_path) field("log:", report.log_path);
  return lines.join("\n");
}

/** One paragraph per configured fail-closed guard that is not running. */
function renderAbsentGuards(result: DoctorResult): string {
  return result.absent_guards.map((g) => `✗ ${g.name}  fail-closed guard (config.json) not running: ${g.reason}\n`
    + `    refused:   ${g.events.join(", ")}, until it runs or config.json stops setting on_failure block for it\n`).join("\n");
}

export function renderDoctor(result: DoctorResult, roots: { project: string; global: string }): string {
  const guards = result.absent_guards.length > 0 ? `\n${renderAbsentGuards(result)}` : "";
  if (result.extensions.length === 0) {
    return `No extensions found.\n  project: ${roots.project}\n  global:  ${roots.global}\n${guards}`;
  }
  const count = (s: ExtensionReport["status"]) => result.extensions.filter((e) => e.status === s).length;
  const summary = (["ok", "error", "disabled", "shadowed", "needs_approval"] as const).filter((s) => count(s) > 0)
    .map((s) => `${count(s)} ${s.replace("_", " ")}`).join(", ");
  const n = result.extensions.length;
  return `${n} extension${n === 1 ? "" : "s"}: ${summary}\n\n${result.extensions.map(renderReport).join("\n\n")}\n${guards}`;
}

async function hostInfo(configPath: string): Promise<{ provider: string; model: string }> {
  const config = await readConfig(configPath);
  return {
    provider: process.env.ZOT_PROVIDER || config.provider || "anthropic",
    model: process.env.ZOT_MODEL || savedModel(config) || "",
  };
}

/** `zot ext doctor …`; returns the exit code. */
export async function runDoctor(argv: string[]): Promise<number> {
  let args: DoctorArgs;
  try {
    args = parseDoctorArgs(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`zot: ${err.message}\nUsage: zot ext doctor [--json] [-e PATH…] [--cwd PATH]\n`);
    return 2;
  }
  const paths = zotPaths();
  const result = await diagnoseExtensions({ cwd: args.cwd, paths, explicit: args.explicit,
    builtinCommands: BUILTIN_COMMANDS.map((c) => c.name), drivers: extensionDrivers, ...(await hostInfo(paths.config)) });
  if (args.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else process.stdout.write(printable(renderDoctor(result, { project: projectExtensionsDir(args.cwd), global: paths.extensions })));
  return result.ok ? 0 : 1;
}

/** The citty entry for the `zot ext` subcommand table; arguments are parsed by runDoctor. */
export const doctorCommand = defineCommand({
  meta: { name: "doctor", description: "Diagnose extension loading, registration and conflicts" },
  args: DOCTOR_ARGS,
  run: ({ rawArgs }) => runDoctor(rawArgs),
});
