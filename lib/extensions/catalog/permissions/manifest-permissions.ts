// The optional `permissions` and `on_failure` fields of extension.json, and what they grant.
// A manifest without `permissions` keeps full access (the spec's behaviour). A manifest with it
// gets only what it lists: an omitted kind grants nothing of that kind.
import * as v from "valibot";
import { INTERCEPTABLE_EVENTS } from "../../../events/names.ts";

/** Placeholders allowed at the start of an `fs` path. */
export const FS_PLACEHOLDERS = ["{extension}", "{project}", "{temp}", "{data}", "~"] as const;

export const UI_GRANTS = ["panels", "submit", "notes"] as const;
export type UiGrant = (typeof UI_GRANTS)[number];

const names = (what: string) =>
  v.union([v.literal("*"), v.array(v.string(`${what} must be strings`))], `${what} must be "*" or an array of names`);

export const PermissionsSchema = v.strictObject({
  tools: v.optional(names("permissions.tools")),
  events: v.optional(names("permissions.events")),
  intercept: v.optional(names("permissions.intercept")),
  ui: v.optional(v.union([v.literal("*"), v.array(v.picklist(UI_GRANTS, `permissions.ui entries must be one of ${UI_GRANTS.join(", ")}`))],
    `permissions.ui must be "*" or an array of ${UI_GRANTS.join(", ")}`)),
  fs: v.optional(v.strictObject({
    read: v.optional(v.array(v.string("permissions.fs.read must be paths"))),
    write: v.optional(v.array(v.string("permissions.fs.write must be paths"))),
  }, "permissions.fs must be an object with read and write path lists")),
  network: v.optional(v.union([v.picklist(["none", "all"]), v.array(v.string("permissions.network hosts must be strings"))],
    `permissions.network must be "none", "all" or an array of hosts`)),
  env: v.optional(v.array(v.string("permissions.env must be variable names"), "permissions.env must be an array of variable names")),
}, "permissions must be an object with tools, events, intercept, ui, fs, network and env");
export type ManifestPermissions = v.InferOutput<typeof PermissionsSchema>;

export const FailurePolicySchema = v.picklist(["allow", "block"], `on_failure must be "allow" or "block"`);
export type FailurePolicy = v.InferOutput<typeof FailurePolicySchema>;
/**
 * `on_failure`: one policy for every interceptor of the extension, or one per interceptable
 * event. A misspelt event name is an error: a guard meant to fail closed must not silently allow.
 */
export const PerEventFailureSchema = v.record(
  v.picklist(INTERCEPTABLE_EVENTS, `on_failure keys must be interceptable events (${INTERCEPTABLE_EVENTS.join(", ")})`),
  FailurePolicySchema, "on_failure must be an object");
export const OnFailureSchema = v.union([FailurePolicySchema, PerEventFailureSchema],
  `on_failure must be "allow", "block" or an object mapping interceptable event names to them`);
export type OnFailure = v.InferOutput<typeof OnFailureSchema>;

/** A set of names: every name, or exactly these. */
export type NameGrant = "all" | ReadonlySet<string>;

/** What an extension may do, normalized from its manifest. */
export interface PermissionGrant {
  /** True when the manifest declares no `permissions`: today's full user privileges. */
  full: boolean;
  tools: NameGrant;
  events: NameGrant;
  intercept: NameGrant;
  ui: NameGrant;
  /** Paths as written in the manifest (placeholders unexpanded); undefined: no file-system scope declared. */
  fs?: { read: string[]; write: string[] };
  /** undefined: no network scope declared. */
  network?: "none" | "all" | string[];
  /** Variables beyond the allowlist a sandboxed process gets (see confinedEnv). */
  env?: string[];
}

const toNames = (value: "*" | readonly string[] | undefined): NameGrant =>
  value === "*" ? "all" : new Set(value ?? []);

export function grantFromManifest(permissions: ManifestPermissions | undefined): PermissionGrant {
  if (!permissions) return { full: true, tools: "all", events: "all", intercept: "all", ui: "all" };
  return {
    full: false,
    tools: toNames(permissions.tools),
    events: toNames(permissions.events),
    intercept: toNames(permissions.intercept),
    ui: toNames(permissions.ui),
    ...(permissions.fs ? { fs: { read: permissions.fs.read ?? [], write: permissions.fs.write ?? [] } } : {}),
    ...(permissions.network !== undefined ? { network: permissions.network } : {}),
    ...(permissions.env ? { env: permissions.env } : {}),
  };
}

export const isGranted = (grant: NameGrant, name: string): boolean => grant === "all" || grant.has(name);

/** True when the process itself runs in an OS sandbox: the manifest declares permissions, so it gets only what they list. */
export const needsSandbox = (grant: PermissionGrant): boolean => !grant.full;

/** The policy `onFailure` sets for `event`, or undefined when it says nothing about it. */
export function explicitFailurePolicy(onFailure: OnFailure | undefined, event: string): FailurePolicy | undefined {
  if (onFailure === undefined) return undefined;
  return typeof onFailure === "string" ? onFailure : (onFailure as Partial<Record<string, FailurePolicy>>)[event];
}

/** The spec's default is allow (fail-open). */
export function failurePolicyFor(onFailure: OnFailure | undefined, event: string): FailurePolicy {
  return explicitFailurePolicy(onFailure, event) ?? "allow";
}

export interface PlaceholderValues {
  extension: string;
  project: string;
  temp: string;
  data: string;
  home: string;
}

/** Expands a leading placeholder of an `fs` path; other paths are returned as written. */
export function expandFsPath(path: string, values: PlaceholderValues): string {
  if (path === "~" || path.startsWith("~/")) return values.home + path.slice(1);
  const match = /^\{(extension|project|temp|data)\}/.exec(path);
  if (!match) return path;
  return values[match[1] as keyof Omit<PlaceholderValues, "home">] + path.slice(match[0].length);
}

/** A grant as `zot ext doctor --json` and `zot ext list --json` write it: "*" or the names. */
export interface GrantJson {
  full_access: boolean;
  tools: "*" | string[];
  events: "*" | string[];
  intercept: "*" | string[];
  ui: "*" | string[];
  fs?: { read: string[]; write: string[] };
  network?: "none" | "all" | string[];
  env?: string[];
}

export function grantJson(grant: PermissionGrant): GrantJson {
  const names = (g: NameGrant) => (g === "all" ? "*" as const : [...g]);
  return {
    full_access: grant.full, tools: names(grant.tools), events: names(grant.events), intercept: names(grant.intercept),
    ui: names(grant.ui), ...(grant.fs ? { fs: { read: [...grant.fs.read], write: [...grant.fs.write] } } : {}),
    ...(grant.network !== undefined ? { network: Array.isArray(grant.network) ? [...grant.network] : grant.network } : {}),
    ...(grant.env ? { env: [...grant.env] } : {}),
  };
}

/** The inverse of grantJson. */
export function grantFromJson(json: GrantJson): PermissionGrant {
  const names = (g: "*" | string[]): NameGrant => (g === "*" ? "all" : new Set(g));
  return {
    full: json.full_access, tools: names(json.tools), events: names(json.events), intercept: names(json.intercept), ui: names(json.ui),
    ...(json.fs ? { fs: { read: [...json.fs.read], write: [...json.fs.write] } } : {}),
    ...(json.network !== undefined ? { network: json.network } : {}),
    ...(json.env ? { env: [...json.env] } : {}),
  };
}

/** One line per kind, for doctor and list: "full access" when nothing is declared. */
export function describeGrant(grant: PermissionGrant): string[] {
  if (grant.full) return ["full access (no permissions declared)"];
  const names = (g: NameGrant) => (g === "all" ? "all" : g.size === 0 ? "none" : [...g].join(", "));
  const lines = [`tools: ${names(grant.tools)}`, `events: ${names(grant.events)}`,
    `intercept: ${names(grant.intercept)}`, `ui: ${names(grant.ui)}`];
  if (grant.fs) lines.push(`fs read: ${grant.fs.read.join(", ") || "none"}`, `fs write: ${grant.fs.write.join(", ") || "none"}`);
  if (grant.network !== undefined) lines.push(`network: ${Array.isArray(grant.network) ? grant.network.join(", ") || "none" : grant.network}`);
  if (grant.env) lines.push(`env: ${grant.env.join(", ") || "none"}`);
  return lines;
}
