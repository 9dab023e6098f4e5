// The `mcp` object of extension.json: the extension is an MCP server zot connects to, over
// stdio (`command`, `args`, `env`, `cwd`) or Streamable HTTP (`url`, `headers`), instead of a
// protocol extension it spawns with `exec`.
import * as v from "valibot";

const stringMap = (what: string) =>
  v.record(v.string(), v.string(`${what} values must be strings`), `${what} must be an object of strings`);

/** How long a server may take to answer initialize and list its tools (default: the host's 5 s). */
const startupTimeout = v.optional(v.pipe(v.number("mcp.startup_timeout_ms must be a number of milliseconds"),
  v.integer("mcp.startup_timeout_ms must be a whole number"), v.minValue(1, "mcp.startup_timeout_ms must be positive")));

const StdioSchema = v.strictObject({
  command: v.pipe(v.string("mcp.command must be a string"), v.minLength(1, "mcp.command must not be empty")),
  args: v.optional(v.array(v.string("mcp.args must be strings"), "mcp.args must be an array of strings")),
  env: v.optional(stringMap("mcp.env")),
  cwd: v.optional(v.string("mcp.cwd must be a string")),
  startup_timeout_ms: startupTimeout,
}, "mcp must be {command, args, env, cwd} or {url, headers}");

/** An http(s) URL; one with `${VAR}` in it (a project's .mcp.json) is checked once expanded. */
export const isServerUrl = (url: string): boolean => url.includes("${") || (URL.canParse(url) && /^https?:\/\//i.test(url));

const HttpSchema = v.strictObject({
  url: v.pipe(v.string("mcp.url must be a string"), v.check(isServerUrl, "mcp.url must be an http(s) URL")),
  headers: v.optional(stringMap("mcp.headers")),
  startup_timeout_ms: startupTimeout,
}, "mcp must be {command, args, env, cwd} or {url, headers}");

export const McpServerSchema = v.union([StdioSchema, HttpSchema], "mcp must be {command, args, env, cwd} or {url, headers}");
export type McpServerConfig = v.InferOutput<typeof McpServerSchema>;
export type McpStdioConfig = v.InferOutput<typeof StdioSchema>;
export type McpHttpConfig = v.InferOutput<typeof HttpSchema>;

export function isHttpConfig(config: McpServerConfig): config is McpHttpConfig {
  return "url" in config;
}

/** What a diagnostic shows as the server's command: the command line, or the URL. */
export function describeServer(config: McpServerConfig): string {
  return isHttpConfig(config) ? config.url : [config.command, ...(config.args ?? [])].join(" ");
}
