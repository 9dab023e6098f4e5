// A project's `.mcp.json`, the file Claude Code and other agent CLIs read:
//   {"mcpServers": {"name": {"command", "args", "env"} | {"type": "http", "url", "headers"}}}
// Each server is a project-local MCP extension candidate of discovery (so the project rules,
// shadowing and reports apply to it as to a folder in .zot/extensions). Runs in the project.
// `${VAR}` and `${VAR:-default}` in command, args, env, url and headers are zot's environment,
// expanded when the server starts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { describeIssues } from "../../protocol/issues.ts";
import { ManifestSchema, type LoadedManifest } from "./manifest.ts";
import { isHttpConfig, isServerUrl, type McpHttpConfig, type McpServerConfig } from "./manifest-mcp.ts";

export const MCP_JSON_FILE = ".mcp.json";

export interface McpJsonEntry {
  name: string;
  /** The manifest it stands for, or why it cannot be used. */
  loaded?: LoadedManifest;
  error?: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `${VAR}` and `${VAR:-default}`, as Claude Code expands them in .mcp.json. */
export const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Expands the variables in one string from `env`; an unset one without a default is an error naming it. */
export function expandVariables(text: string, env: Record<string, string | undefined>): string {
  return text.replace(VARIABLE, (_, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback;
    throw new Error(`\${${name}} is not set and has no default (write \${${name}:-default} for one)`);
  });
}

/** Every string of a value (arrays and objects' values, not keys) expanded. */
function expandAll<T>(value: T, env: Record<string, string | undefined>): T {
  if (typeof value === "string") return expandVariables(value, env) as T;
  if (Array.isArray(value)) return value.map((v) => expandAll(v, env)) as T;
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandAll(v, env)])) as T;
  return value;
}

/**
 * A server of .mcp.json as it starts: its variables expanded from `env` (zot's environment).
 * Expanded only then, so doctor, list and the trust record show and pin `${TOKEN}`, never the
 * secret. Throws naming the variable that is unset without a default.
 */
export function expandServer(config: McpServerConfig, env: Record<string, string | undefined> = process.env): McpServerConfig {
  const expanded = expandAll(config, env);
  if (isHttpConfig(expanded) && !isServerUrl(expanded.url.replaceAll("${", ""))) throw new Error(`url ${(config as McpHttpConfig).url} is not an http(s) URL once its variables are expanded`);
  return expanded;
}

/** One `mcpServers` entry as an extension manifest (the fields other CLIs add are dropped). */
function toManifest(name: string, entry: Record<string, unknown>): unknown {
  const type = typeof entry.type === "string" ? entry.type : undefined;
  if (type === "sse") throw new Error("the SSE transport is not supported (use Streamable HTTP: \"type\": \"http\")");
  const startup = entry.startup_timeout_ms !== undefined ? { startup_timeout_ms: entry.startup_timeout_ms } : {};
  const mcp = entry.url !== undefined || type === "http" || type === "streamable-http"
    ? { url: entry.url, ...(entry.headers !== undefined ? { headers: entry.headers } : {}), ...startup }
    : { command: entry.command, ...(entry.args !== undefined ? { args: entry.args } : {}),
      ...(entry.env !== undefined ? { env: entry.env } : {}), ...(entry.cwd !== undefined ? { cwd: entry.cwd } : {}), ...startup };
  return { name, mcp, ...(entry.disabled === true ? { enabled: false } : {}),
    ...(entry.prefix !== undefined ? { prefix: entry.prefix } : {}) };
}

/**
 * The servers of `<project>/.mcp.json`, in file order; none when there is no file. A broken file
 * or entry is an entry with an `error` naming the file, never an exception.
 */
export async function readMcpJson(project: string): Promise<McpJsonEntry[]> {
  const file = join(project, MCP_JSON_FILE);
  let text: string;
  try {
    text = readFileSync(file, "utf8"); // small: see config.ts
  } catch {
    return [];
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return [{ name: MCP_JSON_FILE, error: `${file}: invalid JSON: ${(err as Error).message}` }];
  }
  const servers = isObject(data) ? data.mcpServers : undefined;
  if (!isObject(servers)) return [{ name: MCP_JSON_FILE, error: `${file}: must hold {"mcpServers": {name: server, …}}` }];
  return Object.entries(servers).map(([name, entry]) => mcpJsonEntry(name, entry, project, `${file}: server "${name}"`));
}

/** One `mcpServers` entry as an MCP extension named `name` in `dir`, or why it cannot be one (naming `where`). */
export function mcpJsonEntry(name: string, entry: unknown, dir: string, where: string): McpJsonEntry {
  if (!isObject(entry)) return { name, error: `${where} must be an object` };
  let manifest: unknown;
  try {
    manifest = toManifest(name, entry);
  } catch (err) {
    return { name, error: `${where}: ${(err as Error).message}` };
  }
  const parsed = v.safeParse(ManifestSchema, manifest);
  if (!parsed.success) return { name, error: `${where}: ${describeIssues(parsed.issues)}` };
  return { name, loaded: { dir, manifest: parsed.output, kind: "mcp", enabled: parsed.output.enabled !== false } };
}
