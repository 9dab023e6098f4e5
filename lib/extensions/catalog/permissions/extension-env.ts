// The environment an extension's process gets. A confined one (its manifest declares
// permissions) gets an allowlist: what programs need to run (PATH, HOME, locale, terminal, the
// temporary folder), zot's own variables for extensions, the proxy and certificate settings when
// it may use the network, and what its permissions.env lists. A full-access one gets the user's
// environment without the variables whose name or value looks like a credential. The user's
// config.json `extensions.<name>.env` passes named variables to either.
import { looksLikeCredential } from "./credential-rule.ts";

const BASE = new Set(["PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TERM", "COLORTERM", "NO_COLOR", "TZ", "TMPDIR",
  "PYTHONPATH", "ZOT_BUN", "ZOT_EXTENSION_RUN", "ZOT_AGENT_RUN"]);
const NETWORK = new Set(["HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "no_proxy", "all_proxy",
  "SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"]);

/** A full-access extension's environment: `env` without credential-like variables, but those `granted` names. */
export function withoutCredentials(env: NodeJS.ProcessEnv, granted: readonly string[] = []): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (granted.includes(name) || !looksLikeCredential(name, value)) kept[name] = value;
  return kept;
}

/** A confined extension's environment: the allowlist of `env`, plus the `granted` names. */
export function confinedEnv(env: NodeJS.ProcessEnv, granted: readonly string[], network: boolean): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (granted.includes(name)) kept[name] = value;
    else if (BASE.has(name) || name.startsWith("LC_") || (network && NETWORK.has(name))) {
      if (!looksLikeCredential(name, value)) kept[name] = value;
    }
  }
  return kept;
}
