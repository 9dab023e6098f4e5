// The secrets an export must not carry: the values of credential-like environment variables
// (API keys, tokens, passwords, DSNs) and the parts of them that leak on their own (a URL's or a
// DSN's password), the key given with --api-key, and the keys saved in `$ZOT_HOME/auth.json`,
// wherever a tool output echoed them.
import { readFileSync } from "node:fs";
import { looksLikeCredential, secretParts } from "../extensions/catalog/permissions/credential-rule.ts";
import { zotPaths } from "../paths.ts";

export function knownSecrets(env: Record<string, string | undefined>, given: readonly (string | undefined)[] = []): string[] {
  const secrets = Object.entries(env).flatMap(([name, value]) => (value && looksLikeCredential(name, value) ? [value, ...secretParts(value)] : []));
  for (const key of given) if (key?.trim()) secrets.push(key.trim());
  try {
    collectStrings(JSON.parse(readFileSync(zotPaths(env).auth, "utf8")), secrets);
  } catch {
    // no auth.json, or one zot cannot read: it holds no key to hide then
  }
  return secrets;
}

function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === "string") into.push(value);
  else if (value && typeof value === "object") for (const item of Object.values(value)) collectStrings(item, into);
}
