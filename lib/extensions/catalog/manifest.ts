// extension.json: validated with valibot; unknown fields are kept (extensions may carry their own).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { describeIssues, issuePath } from "../../protocol/issues.ts";
import { extensionNameProblem } from "./names.ts";
import { McpServerSchema } from "./manifest-mcp.ts";
import { UrlFields } from "./manifest-url.ts";
import { OnFailureSchema, PermissionsSchema } from "./permissions/manifest-permissions.ts";
import { themeFiles } from "../../theme/theme-files.ts";

export const MANIFEST_FILE = "extension.json";

export const ManifestSchema = v.looseObject({
  name: v.pipe(v.string("name must be a string"),
    v.rawCheck(({ dataset, addIssue }) => {
      const problem = dataset.typed ? extensionNameProblem(dataset.value) : undefined;
      if (problem) addIssue({ message: `name ${problem}` });
    })),
  version: v.optional(v.string("version must be a string")),
  exec: v.optional(v.pipe(v.string("exec must be a string"), v.minLength(1, "exec must not be empty"))),
  args: v.optional(v.array(v.string("args must be strings"), "args must be an array of strings")),
  language: v.optional(v.string("language must be a string")),
  description: v.optional(v.string("description must be a string")),
  skills: v.optional(v.array(v.string("skills must be strings"), "skills must be an array of strings")),
  enabled: v.optional(v.boolean("enabled must be true or false")),
  permissions: v.optional(PermissionsSchema),
  on_failure: v.optional(OnFailureSchema),
  /** An MCP server instead of `exec`; `prefix: false` keeps the server's tool names unprefixed. */
  mcp: v.optional(McpServerSchema),
  prefix: v.optional(v.boolean("prefix must be true or false")),
  /** A WebSocket extension: zot connects to `url` instead of spawning `exec`. */
  ...UrlFields,
  /** Hooks in Claude Code's settings shape (hook-settings.ts): run by the hook runner. */
  hooks: v.optional(v.record(v.string(), v.unknown(), "hooks must be an object of events")),
  /** Set for a Claude Code plugin folder read as a bundle (plugin-manifest.ts). */
  plugin: v.optional(v.boolean()),
  /** Folders of Markdown slash commands (a plugin's, or the user's and a project's: command-sources.ts). */
  commands: v.optional(v.array(v.string("commands must be folder paths"), "commands must be an array of folders")),
}, (issue) => (issue.path?.length ? `${issuePath(issue)} is required` : "extension.json must hold a JSON object"));
export type Manifest = v.InferOutput<typeof ManifestSchema>;

/** What kind of bundle a manifest describes: protocol, WebSocket and MCP extensions run; the others never do. */
export type BundleKind = "protocol" | "websocket" | "mcp" | "hooks" | "plugin" | "commands" | "theme" | "skills";

/** The kinds that are started (spawned or connected to) as extensions. */
export const runsAsExtension = (kind: BundleKind | undefined): boolean =>
  kind === "protocol" || kind === "websocket" || kind === "mcp" || kind === "hooks" || kind === "plugin" || kind === "commands";

/** The kinds `zot ext install` asks about: they run code, or send the session to a server. */
export const asksBeforeInstall = (kind: BundleKind): boolean => kind === "protocol" || kind === "websocket" || kind === "hooks" || kind === "plugin";

export class ManifestError extends Error {
  constructor(readonly dir: string, message: string) {
    super(`${join(dir, MANIFEST_FILE)}: ${message}`);
    this.name = "ManifestError";
  }
}

export interface LoadedManifest {
  dir: string;
  manifest: Manifest;
  kind: BundleKind;
  enabled: boolean;
}

/** Validates a parsed manifest; `hasTheme` says whether theme.json or themes/*.json exists. */
export function checkManifest(dir: string, data: unknown, hasTheme: boolean): LoadedManifest {
  // valibot takes an array for an object (and reports its missing name); say what is wrong.
  if (Array.isArray(data)) throw new ManifestError(dir, "extension.json must hold a JSON object, not an array");
  const parsed = v.safeParse(ManifestSchema, data);
  if (!parsed.success) throw new ManifestError(dir, describeIssues(parsed.issues));
  const manifest = parsed.output;
  let kind: BundleKind = "protocol";
  if ([manifest.exec, manifest.mcp, manifest.url, manifest.hooks].filter((x) => x !== undefined).length > 1) {
    throw new ManifestError(dir, "exec, url, mcp and hooks exclude each other (one way to run the extension)");
  }
  if (manifest.mcp) kind = "mcp";
  else if (manifest.url) kind = "websocket";
  else if (manifest.hooks) kind = "hooks";
  else if (!manifest.exec) {
    if (hasTheme) kind = "theme";
    else if (manifest.skills && manifest.skills.length > 0) kind = "skills";
    else throw new ManifestError(dir, "exec is required (or url for a WebSocket extension, or mcp for an MCP server; only theme-only and skill-only bundles may omit them)");
  }
  return { dir, manifest, kind, enabled: manifest.enabled !== false };
}

/** Reads and validates `<dir>/extension.json`. Throws ManifestError naming the folder. */
export async function loadManifest(dir: string): Promise<LoadedManifest> {
  let text: string;
  try {
    text = readFileSync(join(dir, MANIFEST_FILE), "utf8"); // small: see config.ts
  } catch (err) {
    throw new ManifestError(dir, `cannot read: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ManifestError(dir, `invalid JSON: ${(err as Error).message}`);
  }
  const hasTheme = themeFiles(dir).length > 0;
  return checkManifest(dir, data, hasTheme);
}
