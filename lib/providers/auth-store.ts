// Writing `$ZOT_HOME/auth.json` (`zot login`, `zot logout`, /login, /logout) in the format
// credentials.ts reads: `{"anthropic": {"api_key": "…"}}`. Other providers' entries, and any
// other fields of an entry, are kept as written. The file is replaced atomically and is 0600.
import { readFileSync } from "node:fs";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import { CredentialsError } from "./credentials.ts";
import type { ProviderName } from "./models.ts";

const AUTH_FILE_MODE = 0o600;

/** Saves `key` as `provider`'s entry, replacing its previous key. */
export async function saveApiKey(authFile: string, provider: ProviderName, key: string): Promise<void> {
  const data = await readAuthObject(authFile);
  const entry = data[provider];
  data[provider] = entry !== null && typeof entry === "object" && !Array.isArray(entry)
    ? { ...(entry as Record<string, unknown>), api_key: key }
    : { api_key: key };
  await writeFileAtomic(authFile, `${JSON.stringify(data, null, 2)}\n`, AUTH_FILE_MODE);
}

/** Removes `provider`'s entry; false when it had none (the file is then left untouched). */
export async function removeApiKey(authFile: string, provider: ProviderName): Promise<boolean> {
  const data = await readAuthObject(authFile);
  if (!Object.hasOwn(data, provider)) return false;
  delete data[provider];
  await writeFileAtomic(authFile, `${JSON.stringify(data, null, 2)}\n`, AUTH_FILE_MODE);
  return true;
}

/**
 * The file's object, `{}` when it does not exist. A file that is not a JSON object is refused
 * rather than overwritten: it may hold keys the user wants to keep.
 */
async function readAuthObject(authFile: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = readFileSync(authFile, "utf8"); // small: see config.ts
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new CredentialsError(`cannot read ${authFile}: ${(err as Error).message}`);
  }
  if (text.trim() === "") return {};
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new CredentialsError(`${authFile} is not valid JSON (${(err as Error).message}); fix or remove it, zot will not overwrite it`);
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new CredentialsError(`${authFile} must hold a JSON object keyed by provider; fix or remove it, zot will not overwrite it`);
  }
  return data as Record<string, unknown>;
}
