// Logging in and out, shared by `zot login`/`zot logout` and the REPL's /login and /logout: a
// key is checked with one cheap request to the provider and saved in auth.json only when the
// provider accepted it. Messages never contain the key.
import { API_KEY_ENV, CredentialsError, keyVariableSet, resolveApiKey, type ProviderName } from "../providers/index.ts";
import { removeApiKey, saveApiKey } from "../providers/auth-store.ts";
import { checkApiKey, keyCheckUrl } from "../providers/key-check.ts";

export interface LoginRequest {
  provider: ProviderName;
  key: string;
  /** Where the key is checked (default: the provider's public API). */
  baseUrl?: string;
  authFile: string;
  env: Record<string, string | undefined>;
  timeoutMs?: number;
}

export interface LoginOutcome {
  ok: boolean;
  message: string;
}

export async function logIn(request: LoginRequest): Promise<LoginOutcome> {
  const { provider, authFile } = request;
  const key = request.key.trim();
  if (key === "") return { ok: false, message: "no key was given; nothing was saved" };
  const check = await checkApiKey({ provider, key, ...(request.baseUrl ? { baseUrl: request.baseUrl } : {}),
    ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}) });
  if (!check.ok) {
    const url = keyCheckUrl(provider, request.baseUrl);
    const why = check.kind === "network" ? `the key could not be checked: ${check.message}`
      : check.kind === "refused" ? `${provider} refused the key (HTTP ${check.status}: ${check.message})`
        : `the key could not be checked: ${url} answered HTTP ${check.status}: ${check.message}`;
    return { ok: false, message: `${why}; nothing was saved` };
  }
  try {
    await saveApiKey(authFile, provider, key);
  } catch (err) {
    return { ok: false, message: `the key works, but saving it failed: ${(err as Error).message}` };
  }
  const shadow = envShadow(provider, request.env);
  return { ok: true, message: `Logged in to ${provider}: the key works and is saved in ${authFile}.${shadow}` };
}

/** Removes the saved key of each of `providers` (the environment's keys are not zot's to remove). */
export async function logOut(providers: readonly ProviderName[], authFile: string, env: Record<string, string | undefined>): Promise<LoginOutcome> {
  const lines: string[] = [];
  for (const provider of providers) {
    let removed: boolean;
    try {
      removed = await removeApiKey(authFile, provider);
    } catch (err) {
      return { ok: false, message: (err as Error).message };
    }
    const setVariable = keyVariableSet(provider, env);
    const stillSet = setVariable ? ` ${setVariable} is still set in the environment and is used.` : "";
    lines.push(removed ? `Logged out of ${provider}: its key was removed from ${authFile}.${stillSet}`
      : `No saved key for ${provider} in ${authFile}.${stillSet}`);
  }
  return { ok: true, message: lines.join("\n") };
}

export interface KeySourceRow {
  provider: ProviderName;
  /** Where the key in use comes from, in words; undefined when there is none. */
  source?: string;
  /** A saved key that the environment overrides, or a problem with auth.json. */
  note?: string;
}

/** For each provider, where its key comes from (never the key). Flag keys are per run and not listed. */
export function keySources(providers: readonly ProviderName[], authFile: string, env: Record<string, string | undefined>): KeySourceRow[] {
  return providers.map((provider) => {
    const variable = keyVariableSet(provider, env) ?? API_KEY_ENV[provider];
    let saved: boolean;
    try {
      saved = resolveApiKey({ provider, env: {}, authFile }) !== undefined;
    } catch (err) {
      if (!(err instanceof CredentialsError)) throw err;
      return { provider, ...(env[variable]?.trim() ? { source: `${variable} (environment)` } : {}), note: err.message };
    }
    if (env[variable]?.trim()) {
      return { provider, source: `${variable} (environment)`, ...(saved ? { note: `a saved key in ${authFile} is not used while ${variable} is set` } : {}) };
    }
    return saved ? { provider, source: authFile } : { provider };
  });
}

function envShadow(provider: ProviderName, env: Record<string, string | undefined>): string {
  const variable = keyVariableSet(provider, env) ?? API_KEY_ENV[provider];
  return env[variable]?.trim() ? ` ${variable} is set in the environment and is used before the saved key.` : "";
}
