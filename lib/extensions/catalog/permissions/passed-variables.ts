// The variables of the user's environment a bundle would receive, for the trust question and
// install: the `${VAR}`s its URL, headers, arguments or environment expand (a url extension, an
// MCP server), and what config.json passes it. And the one refusal: a project's bundle never has a
// model provider's key expanded into what it sends or gets.
import { API_KEY_ENVS } from "../../../providers/credentials.ts";
import { VARIABLE } from "../dot-mcp-json.ts";
import type { Manifest } from "../manifest.ts";

/** Every variable that a model provider's key is read from (ANTHROPIC_API_KEY, OPENAI_API_KEY, …). */
const PROVIDER_KEY_VARIABLES = new Set(Object.values(API_KEY_ENVS).flat());

/** The strings of a manifest that zot expands `${VAR}` in: a url extension's URL and headers, an MCP server's entry. */
function expandedFields(manifest: Pick<Manifest, "url" | "headers" | "mcp">): string[] {
  const strings: string[] = [];
  if (manifest.url) strings.push(manifest.url, ...Object.values(manifest.headers ?? {}));
  const mcp = manifest.mcp as Record<string, unknown> | undefined;
  if (mcp) {
    for (const value of Object.values(mcp)) {
      if (typeof value === "string") strings.push(value);
      else if (Array.isArray(value)) strings.push(...value.filter((item): item is string => typeof item === "string"));
      else if (value && typeof value === "object") strings.push(...Object.values(value).filter((item): item is string => typeof item === "string"));
    }
  }
  return strings;
}

/** The names of the `${VAR}`s a manifest's URL, headers or MCP entry expand, in order, once each. */
export function expandedVariables(manifest: Pick<Manifest, "url" | "headers" | "mcp">): string[] {
  return [...new Set(expandedFields(manifest).flatMap((text) => [...text.matchAll(VARIABLE)].map((match) => match[1]!)))];
}

/** The model provider key variables among a manifest's expanded ones. */
export const providerKeysExpanded = (manifest: Pick<Manifest, "url" | "headers" | "mcp">): string[] =>
  expandedVariables(manifest).filter((name) => PROVIDER_KEY_VARIABLES.has(name));

/** Why a project's bundle may not start as written (it expands a provider key), or undefined. */
export function providerKeyProblem(manifest: Pick<Manifest, "url" | "headers" | "mcp">): string | undefined {
  const keys = providerKeysExpanded(manifest);
  if (keys.length === 0) return undefined;
  return `it expands ${keys.map((k) => `\${${k}}`).join(", ")}, a model provider's key, and a project's extension never gets that key; `
    + "give it a key of its own (another variable)";
}

/** The trust question's lines about variables: what it expands and what config.json passes it. */
export function variableLines(manifest: Pick<Manifest, "url" | "headers" | "mcp">, passed: readonly string[]): string[] {
  const lines: string[] = [];
  const expanded = expandedVariables(manifest);
  if (expanded.length) lines.push(`sends your ${expanded.map((name) => `\${${name}}`).join(", ")} (expanded into its ${manifest.url ? "URL or headers" : "command, environment, URL or headers"})`);
  if (passed.length) lines.push(`gets ${passed.join(", ")} from your environment (config.json passes ${passed.length === 1 ? "it" : "them"})`);
  return lines;
}
