// Who may open a local WebSocket server of zot's (rpc --listen, ext serve, the SDK's ext.serve):
// the checks a browser cannot get around. A web page the user merely visits can reach loopback
// ports, so the upgrade request is judged by its Origin (refusing `null`, which a sandboxed iframe
// on any site sends), its Host (DNS rebinding sends a foreign name to a loopback address) and,
// where the server requires one, a token the page cannot know.

/** The host names that mean this machine. */
const LOOPBACK_NAMES = new Set(["127.0.0.1", "[::1]", "::1", "localhost"]);

export function isLoopbackName(host: string): boolean {
  return LOOPBACK_NAMES.has(host.toLowerCase());
}

/** The parts of an HTTP upgrade request the checks read (node:http's IncomingMessage has them). */
export interface UpgradeRequest {
  url?: string;
  headers: Record<string, string | string[] | undefined>;
}

export type AccessVerdict = { ok: true; tokenGiven: boolean } | { ok: false; status: 401 | 403; reason: string };

export interface AccessRules {
  /** Whether the server listens on loopback only: then Host and Origin must name this machine. */
  loopbackOnly: boolean;
  /** The token clients must present (at the upgrade, or later where the protocol allows). */
  token?: string;
  /** The token must come with the upgrade itself (`?token=` or `Authorization: Bearer`). */
  tokenAtUpgrade: boolean;
}

function header(req: UpgradeRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The hostname of a Host header (`127.0.0.1:8765`, `[::1]:80`, `localhost`). */
export function hostHeaderName(host: string): string {
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  const colon = host.lastIndexOf(":");
  return colon === -1 ? host : host.slice(0, colon);
}

/** The token an upgrade carries: `Authorization: Bearer …` or the URL's `token` parameter. */
export function upgradeToken(req: UpgradeRequest): string | undefined {
  const auth = header(req, "authorization");
  const bearer = auth && /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1];
  if (bearer) return bearer;
  try {
    return new URL(req.url ?? "/", "http://x").searchParams.get("token") ?? undefined;
  } catch {
    return undefined;
  }
}

/** Compares a secret without returning early at the first difference. */
export function sameSecret(given: string, expected: string): boolean {
  let diff = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) diff |= (given.charCodeAt(i) || 0) ^ expected.charCodeAt(i);
  return diff === 0;
}

/** Whether a browser page of `origin` counts as this machine's own. Opaque origins never do. */
function loopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === "http:" || url.protocol === "https:") && isLoopbackName(url.hostname);
  } catch {
    return false;
  }
}

/**
 * Judges one upgrade request: 403 for a foreign Host or Origin, 401 for a wrong token or a missing
 * one where it must come with the upgrade. A page with an opaque Origin (`null`, `file://`) is let
 * in only with the right token in its URL: the user's own file page has it, a stranger's does not.
 */
export function checkUpgrade(req: UpgradeRequest, rules: AccessRules): AccessVerdict {
  const given = upgradeToken(req);
  const tokenGiven = given !== undefined && rules.token !== undefined && sameSecret(given, rules.token);
  if (given !== undefined && rules.token !== undefined && !tokenGiven) return { ok: false, status: 401, reason: "wrong token" };
  if (rules.loopbackOnly) {
    const host = header(req, "host");
    if (host === undefined || !isLoopbackName(hostHeaderName(host))) {
      return { ok: false, status: 403, reason: `Host ${JSON.stringify(host ?? "")} is not this machine: connect to 127.0.0.1, ::1 or localhost` };
    }
    // Non-browser clients send no Origin; "null" comes from sandboxed iframes of any site.
    const origin = header(req, "origin");
    const opaque = origin === "null" || origin === "file://";
    if (origin !== undefined && !loopbackOrigin(origin) && !(opaque && tokenGiven)) {
      return { ok: false, status: 403, reason: opaque
        ? `Origin ${origin} needs the token in the URL (ws://…/?token=TOKEN): any site's sandboxed frame sends it too`
        : `Origin ${JSON.stringify(origin)} not allowed: only pages served from this machine (http://127.0.0.1, http://localhost) may connect` };
    }
  }
  if (rules.token !== undefined && rules.tokenAtUpgrade && !tokenGiven) {
    return { ok: false, status: 401, reason: "a token is required: send Authorization: Bearer TOKEN or ?token=TOKEN" };
  }
  return { ok: true, tokenGiven };
}

/** A fresh token for a server the user started without one: 32 random bytes, URL-safe. */
export function newAccessToken(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(32));
  return Buffer.from(bytes).toString("base64url");
}
