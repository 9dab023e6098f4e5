// A Claude Code plugin folder as a zot bundle of kind "plugin": `.claude-plugin/plugin.json`
// (optional: the folder's name otherwise) and its parts at their default places or the paths
// plugin.json names: `commands/*.md`, `agents/*.md`, `skills/*/SKILL.md`, `hooks/hooks.json`,
// `.mcp.json`, `bin/`. The hook runner runs its hooks and commands; skills and agent types are
// offered as zot's own. What cannot be read is a warning naming the plugin and the file, and the
// rest of the plugin still loads.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import * as v from "valibot";
import { describeIssues } from "../../protocol/issues.ts";
import type { Candidate } from "./candidate.ts";
import { mcpJsonEntry } from "./dot-mcp-json.ts";
import { ManifestSchema, type LoadedManifest } from "./manifest.ts";
import { isJsonObject } from "../../protocol/json-object.ts";

export const PLUGIN_MANIFEST = join(".claude-plugin", "plugin.json");
/** zot's own state of an installed plugin (`{"enabled": false}` after `zot ext disable`); the plugin's files stay as shipped. */
export const PLUGIN_STATE = ".zot-plugin.json";

/** What zot uses of a plugin, beside the manifest fields every bundle has. */
export interface PluginParts {
  /** Folders of `*.md` slash commands. */
  commands: string[];
  /** Folders of `*.md` agent types. */
  agents: string[];
  /** Folders of `*.md` output styles (a system-prompt addition the user picks). */
  outputStyles: string[];
  /** A `bin/` folder put on the bash tool's PATH. */
  bin?: string;
  /** Its MCP servers (`.mcp.json` or plugin.json's `mcpServers`), `${CLAUDE_PLUGIN_ROOT}` not yet expanded. */
  mcpServers: Record<string, unknown>;
}

/** Whether `dir` looks like a plugin: plugin.json, or (for a folder passed by path) one of its parts and no extension.json. */
export function isPluginFolder(dir: string, byPath = false): boolean {
  if (existsSync(join(dir, PLUGIN_MANIFEST))) return true;
  if (!byPath || existsSync(join(dir, "extension.json"))) return false;
  return ["commands", "agents", "skills", join("hooks", "hooks.json")].some((part) => existsSync(join(dir, part)));
}

const asList = (value: unknown): string[] => (typeof value === "string" ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

const isDir = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** Reads a JSON file of the plugin; a problem is pushed to `warnings` naming the file. */
function readJson(file: string, warnings: string[]): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    warnings.push(`${file}: ${(err as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : `invalid JSON: ${(err as Error).message}`}`);
    return undefined;
  }
}

/** The folder's name as a bundle name (plugin names are kebab-case; anything else becomes `-`). */
const folderName = (dir: string) => basename(resolve(dir)).replace(/[^A-Za-z0-9._-]/g, "-");

/**
 * The plugin in `dir` as a bundle manifest with its parts. Throws (as loadManifest does) only
 * when plugin.json itself is unusable; a broken part is a warning.
 */
export function loadPlugin(dir: string): { loaded: LoadedManifest; parts: PluginParts; warnings: string[] } {
  const warnings: string[] = [];
  const manifestFile = join(dir, PLUGIN_MANIFEST);
  let meta: Record<string, unknown> = {};
  if (existsSync(manifestFile)) {
    const data = readJson(manifestFile, []);
    if (!isJsonObject(data)) throw new Error(`${manifestFile}: must hold a JSON object with the plugin's name`);
    meta = data;
  }
  const name = typeof meta.name === "string" && meta.name !== "" ? meta.name : folderName(dir);
  const at = (paths: string[]) => paths.map((p) => resolve(dir, p));
  const parts: PluginParts = {
    commands: [...(isDir(join(dir, "commands")) ? [join(dir, "commands")] : []), ...at(asList(meta.commands))].filter(isDir),
    agents: [...(isDir(join(dir, "agents")) ? [join(dir, "agents")] : []), ...at(asList(meta.agents))].filter(isDir),
    outputStyles: [...(isDir(join(dir, "output-styles")) ? [join(dir, "output-styles")] : []), ...at(asList(meta.outputStyles))].filter(isDir),
    ...(isDir(join(dir, "bin")) ? { bin: join(dir, "bin") } : {}),
    mcpServers: {},
  };
  const hooks: Record<string, unknown[]> = {};
  const addHooks = (value: unknown, where: string) => {
    const groups = isJsonObject(value) && isJsonObject(value.hooks) ? value.hooks : undefined;
    if (!groups) return void warnings.push(`${where}: must hold {"hooks": {event: [...]}}`);
    for (const [event, list] of Object.entries(groups)) hooks[event] = [...(hooks[event] ?? []), ...(Array.isArray(list) ? list : [list])];
  };
  const hooksFile = join(dir, "hooks", "hooks.json");
  if (existsSync(hooksFile)) {
    const data = readJson(hooksFile, warnings);
    if (data !== undefined) addHooks(data, hooksFile);
  }
  for (const extra of asList(meta.hooks)) {
    const file = resolve(dir, extra);
    if (file === hooksFile) continue;
    const data = readJson(file, warnings);
    if (data !== undefined) addHooks(data, file);
  }
  if (isJsonObject(meta.hooks)) addHooks(meta.hooks, manifestFile);
  const mcpFile = join(dir, ".mcp.json");
  const mcpSources: Array<[unknown, string]> = [];
  if (existsSync(mcpFile)) mcpSources.push([readJson(mcpFile, warnings), mcpFile]);
  for (const extra of asList(meta.mcpServers)) mcpSources.push([readJson(resolve(dir, extra), warnings), resolve(dir, extra)]);
  if (isJsonObject(meta.mcpServers)) mcpSources.push([{ mcpServers: meta.mcpServers }, manifestFile]);
  for (const [data, file] of mcpSources) {
    if (data === undefined) continue;
    const servers = isJsonObject(data) && isJsonObject(data.mcpServers) ? data.mcpServers : isJsonObject(data) ? data : undefined;
    if (!servers) warnings.push(`${file}: must hold {"mcpServers": {name: server}}`);
    else Object.assign(parts.mcpServers, servers);
  }
  const skills = [...(isDir(join(dir, "skills")) ? ["skills"] : []), ...asList(meta.skills)];
  const manifest = {
    name,
    ...(typeof meta.version === "string" ? { version: meta.version } : {}),
    ...(typeof meta.description === "string" ? { description: meta.description } : {}),
    ...(skills.length ? { skills } : {}),
    plugin: true,
    ...(parts.commands.length ? { commands: parts.commands } : {}),
    ...(Object.keys(hooks).length ? { hooks } : {}),
  };
  const parsed = v.safeParse(ManifestSchema, manifest);
  if (!parsed.success) throw new Error(`${manifestFile}: ${describeIssues(parsed.issues)}`);
  const state = existsSync(join(dir, PLUGIN_STATE)) ? readJson(join(dir, PLUGIN_STATE), warnings) : undefined;
  const enabled = !(isJsonObject(state) && state.enabled === false);
  return { loaded: { dir, manifest: { ...parsed.output, ...(enabled ? {} : { enabled: false }) }, kind: "plugin", enabled }, parts, warnings };
}

/** What a plugin offers besides hooks and commands, by name: agent types, skills and output styles (doctor lists them). */
export function pluginOffers(dir: string): { agents: string[]; skills: string[]; output_styles: string[] } | undefined {
  let plugin;
  try {
    plugin = loadPlugin(dir);
  } catch {
    return undefined;
  }
  const markdown = (dirs: string[]) => dirs.flatMap((d) => listDir(d).filter((f) => f.endsWith(".md")).map((f) => basename(f, ".md")));
  const skills = (plugin.loaded.manifest.skills ?? []).flatMap((entry) => {
    const at = resolve(dir, entry);
    return existsSync(join(at, "SKILL.md")) ? [basename(at)] : listDir(at).filter((f) => existsSync(join(at, f, "SKILL.md")));
  });
  return { agents: markdown(plugin.parts.agents), skills, output_styles: markdown(plugin.parts.outputStyles) };
}

const listDir = (dir: string): string[] => {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
};

/** A plugin's parts, or undefined when its plugin.json cannot be read. */
export function pluginParts(dir: string): PluginParts | undefined {
  try {
    return loadPlugin(dir).parts;
  } catch {
    return undefined;
  }
}

/** Every string of `value` with `${CLAUDE_PLUGIN_ROOT}` replaced by the plugin's folder. */
function withRoot(value: unknown, root: string): unknown {
  if (typeof value === "string") return value.replaceAll("${CLAUDE_PLUGIN_ROOT}", root);
  if (Array.isArray(value)) return value.map((v) => withRoot(v, root));
  return isJsonObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withRoot(v, root)])) : value;
}

/**
 * A plugin's MCP servers as MCP extension candidates named `<plugin>-<server>`, right after the
 * plugin in load order: `${CLAUDE_PLUGIN_ROOT}` is the plugin's folder (other `${VAR}`s expand
 * when the server starts), and a disabled plugin's servers are disabled with it.
 */
export function pluginMcpCandidates(plugin: Candidate): Candidate[] {
  if (plugin.loaded?.kind !== "plugin") return [];
  let servers: Record<string, unknown>;
  try {
    servers = loadPlugin(plugin.dir).parts.mcpServers;
  } catch {
    return [];
  }
  const source = join(plugin.dir, ".mcp.json");
  return Object.entries(servers).map(([server, entry]) => {
    const name = `${plugin.name}-${server}`;
    const read = mcpJsonEntry(name, withRoot(entry, plugin.dir), plugin.dir, `plugin ${plugin.name}: MCP server "${server}"`);
    const base = { dir: plugin.dir, scope: plugin.scope, name, warnings: [], source };
    if (!read.loaded) return { ...base, decision: "error", error: read.error } as Candidate;
    const enabled = plugin.loaded!.enabled && read.loaded.enabled;
    return { ...base, loaded: { ...read.loaded, enabled, manifest: { ...read.loaded.manifest, ...(enabled ? {} : { enabled: false }) } }, decision: "spawn" } as Candidate;
  });
}
