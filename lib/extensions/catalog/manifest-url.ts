// The WebSocket fields of extension.json: the extension runs elsewhere and zot connects to its
// `url` (ws:// or wss://) instead of spawning `exec`. `headers` go with the upgrade request, their
// `${VAR}`s expanded from zot's environment only when it connects (so doctor, list and the trust
// record show `${TEAM_TOKEN}`, never the secret). Plain ws:// to another machine needs `insecure`.
import * as v from "valibot";
import { isLoopbackUrl } from "../../providers/credentials.ts";

/** A ws:// or wss:// URL (`${VAR}`s allowed; checked again once expanded). */
export const isWebSocketUrl = (url: string): boolean => {
  const plain = url.replaceAll("${", "");
  return URL.canParse(plain) && /^wss?:\/\//i.test(plain);
};

/** A header name as HTTP allows it (a token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Why `name: value` cannot go in an HTTP request, or undefined. Never quotes the value (it may hold a secret). */
export function headerProblem(name: string, value: string): string | undefined {
  if (!HEADER_NAME.test(name)) return `header name "${name.replace(/[^\x20-\x7e]/g, "?")}" is not a valid HTTP header name`;
  if (/[\r\n]/.test(value)) return `header ${name} holds a line break, which an HTTP header value cannot`;
  if (/[^\t\x20-\x7e\x80-\xff]/.test(value)) {
    return `header ${name} holds a control character or a character outside Latin-1, which an HTTP header value cannot`;
  }
  return undefined;
}

const HeadersSchema = v.pipe(
  v.record(v.string(), v.string("headers values must be strings"), "headers must be an object of strings"),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    for (const [name, value] of Object.entries(dataset.value)) {
      const problem = headerProblem(name, value);
      if (problem) addIssue({ message: problem });
    }
  }),
);

export const UrlFields = {
  url: v.optional(v.pipe(v.string("url must be a string"), v.check(isWebSocketUrl, "url must be a ws:// or wss:// URL"))),
  headers: v.optional(HeadersSchema),
  /** Allows plain ws:// to a host other than this machine (frames travel unencrypted). */
  insecure: v.optional(v.boolean("insecure must be true or false")),
  /** A PEM file (relative to the extension's folder) of the CA that signs the wss:// server's certificate. */
  ca: v.optional(v.pipe(v.string("ca must be a string"), v.minLength(1, "ca must not be empty"))),
};

/** Why zot will not connect to `url` as it stands, or undefined. */
export function unsafeUrlProblem(url: string, insecure: boolean | undefined): string | undefined {
  if (!/^ws:\/\//i.test(url) || isLoopbackUrl(url) || insecure === true) return undefined;
  return `plain ws:// to another machine sends every frame unencrypted; use wss://, or set "insecure": true in extension.json`;
}

/** What a WebSocket extension's manifest asks for that is unsafe or that zot cannot enforce on another machine. */
export function remoteWarnings(manifest: { url?: string; insecure?: boolean; permissions?: { fs?: unknown; network?: unknown; env?: unknown } }): string[] {
  const warnings: string[] = [];
  if (manifest.url && manifest.insecure === true && unsafeUrlProblem(manifest.url, false)) {
    warnings.push(`insecure: plain ws:// to another machine; the session's events and tool calls it gets travel unencrypted`);
  }
  const p = manifest.permissions;
  const unenforced = [p?.fs ? "fs" : "", p?.network ? "network" : "", p?.env ? "env" : ""].filter(Boolean);
  if (unenforced.length) {
    warnings.push(`permissions.${unenforced.join(", permissions.")} cannot be enforced for a remote extension (zot's OS sandbox does not reach the server); ignored`);
  }
  return warnings;
}
