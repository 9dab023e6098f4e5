// API key resolution: the flag, then the provider's environment variable, then
// `$ZOT_HOME/auth.json` (`{"anthropic": {"api_key": "…"}}` or `{"anthropic": "…"}`).
import { readFileSync } from "node:fs";
import type { ProviderName } from "./models.ts";
import { byPreset } from "./presets.ts";

/** Each provider's key variables, in the order they are read (a cloud may have two names). */
export const API_KEY_ENVS: Record<ProviderName, readonly string[]> = {
  anthropic: ["ANTHROPIC_API_KEY"],
  openai: ["OPENAI_API_KEY"],
  // Only a hosted or proxied Ollama wants one; a local server takes none.
  ollama: ["OLLAMA_API_KEY"],
  // Google's own tools read GOOGLE_API_KEY too.
  gemini: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
  ...byPreset((preset) => preset.keyEnv),
};

/** Each provider's first key variable, the one messages name first. */
export const API_KEY_ENV = Object.fromEntries(
  Object.entries(API_KEY_ENVS).map(([provider, names]) => [provider, names[0]]),
) as Record<ProviderName, string>;

/** The first of the provider's key variables that is set (non-empty) in `env`. */
export function keyVariableSet(provider: ProviderName, env: Record<string, string | undefined>): string | undefined {
  return API_KEY_ENVS[provider].find((name) => env[name]?.trim());
}

/** The provider's key variables for a message: `A` or `A or B`. */
export function keyVariablesText(provider: ProviderName): string {
  return API_KEY_ENVS[provider].join(" or ");
}

export interface ResolveApiKeyOptions {
  provider: ProviderName;
  /** `--api-key`. */
  flag?: string;
  env?: Record<string, string | undefined>;
  /** Path of auth.json; skipped when absent. */
  authFile?: string;
}

export interface ResolvedApiKey {
  key: string;
  source: "flag" | "env" | "auth_file";
  /** The environment variable the key came from (source `env`). */
  variable?: string;
}

/** A key that exists but cannot be used, with the reason (an unreadable or malformed auth.json). */
export class CredentialsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CredentialsError";
  }
}

/**
 * The first non-empty key in order flag, environment, auth file; `undefined` when none is set.
 * A missing auth file is fine; an unreadable or malformed one throws `CredentialsError`.
 */
export function resolveApiKey(options: ResolveApiKeyOptions): ResolvedApiKey | undefined {
  const flag = options.flag?.trim();
  if (flag) return { key: flag, source: "flag" };
  const env = options.env ?? process.env;
  const variable = keyVariableSet(options.provider, env);
  if (variable) return { key: env[variable]!.trim(), source: "env", variable };
  if (!options.authFile) return undefined;
  const fromFile = readAuthFile(options.authFile, options.provider);
  return fromFile ? { key: fromFile, source: "auth_file" } : undefined;
}

function readAuthFile(path: string, provider: ProviderName): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new CredentialsError(`cannot read ${path}: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new CredentialsError(`${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new CredentialsError(`${path} must hold a JSON object keyed by provider, e.g. {"${provider}": {"api_key": "…"}}`);
  }
  const entry = (data as Record<string, unknown>)[provider];
  if (entry === undefined || entry === null) return undefined;
  if (typeof entry === "string") return entry.trim() || undefined;
  if (typeof entry === "object" && !Array.isArray(entry)) {
    const key = (entry as Record<string, unknown>).api_key;
    if (key === undefined || key === null) return undefined;
    if (typeof key === "string") return key.trim() || undefined;
  }
  throw new CredentialsError(`${path}: "${provider}" must be a key string or {"api_key": "…"}`);
}

/** True for base URLs on this machine (localhost, 127.0.0.0/8, ::1): local servers need no key. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return isLoopbackHost(host);
}

/** A host name or address (IPv6 bracketed or not) on this machine: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  let host = hostname.toLowerCase();
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}
