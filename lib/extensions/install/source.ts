// Which way an install source is fetched: copied from a folder, cloned with git, or downloaded
// with giget. Pure: the only filesystem question (is this a folder?) is passed in.
import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";

export type InstallSource =
  /** A local folder, copied recursively. */
  | { kind: "folder"; path: string }
  /** A git repository: `url` is what `git clone` gets; `ref` a branch or tag. */
  | { kind: "git"; url: string; ref?: string }
  /** A giget source (`gh:owner/repo/sub#ref`, `gitlab:…`, an http(s) tarball URL), passed as is. */
  | { kind: "giget"; source: string }
  /** `plugin@marketplace`: a plugin listed by a marketplace added with `zot ext marketplace add`. */
  | { kind: "marketplace"; plugin: string; marketplace: string };

/** `name@marketplace` (no slash, no colon: never a path, a URL or `user@host:path`). */
export const MARKETPLACE_PLUGIN = /^([\w.-]+)@([\w.-]+)$/;

const GIGET_PREFIX = /^(gh|github|gitlab|bitbucket|sourcehut):./;
const TARBALL_PATH = /\.(tar\.gz|tgz|tar)$/i;
const GIT_URL = /^(ssh|git|file):\/\//;
/** scp-like `user@host:path`, as git accepts it. */
const SCP_LIKE = /^[\w.-]+@[\w.-]+:/;

/** Splits `base#ref` at the last `#`; an empty ref counts as none. */
export function splitRef(source: string): { base: string; ref?: string } {
  const at = source.lastIndexOf("#");
  if (at <= 0) return { base: source };
  const ref = source.slice(at + 1);
  return { base: source.slice(0, at), ref: ref || undefined };
}

function expandHome(path: string): string {
  return path === "~" || path.startsWith("~/") ? homedir() + path.slice(1) : path;
}

/**
 * Classifies an install source. Rules, in order:
 * - `gh:`/`github:`/`gitlab:`/`bitbucket:`/`sourcehut:` → giget;
 * - an http(s) URL whose path ends in .tar.gz/.tgz/.tar → giget (tarball); other http(s) → git;
 * - `ssh://`, `git://`, `file://`, `user@host:path` → git;
 * - a local path ending in `.git` (a bare repository) → git through a `file://` URL, because
 *   git ignores `--depth` for plain local paths;
 * - any other local path → folder copy (relative paths resolve against `cwd`).
 * `#ref` selects a branch or tag for git sources. Throws for unknown `scheme:` prefixes.
 */
export function classifySource(source: string, cwd: string): InstallSource {
  if (!source.trim()) throw new Error("the install source is empty");
  if (GIGET_PREFIX.test(source)) return { kind: "giget", source };
  if (/^https?:\/\//i.test(source)) {
    const { base, ref } = splitRef(source);
    let path: string;
    try {
      path = new URL(base).pathname;
    } catch {
      throw new Error(`"${source}" is not a valid URL`);
    }
    if (TARBALL_PATH.test(path)) return { kind: "giget", source };
    return { kind: "git", url: base, ref };
  }
  if (GIT_URL.test(source) || SCP_LIKE.test(source)) {
    const { base, ref } = splitRef(source);
    return { kind: "git", url: base, ref };
  }
  // A `scheme:` we do not know (but not a Windows drive letter) is a typo, not a folder.
  const scheme = /^([a-z][a-z0-9+.-]+):/i.exec(source);
  if (scheme && !isAbsolute(source)) {
    throw new Error(`unsupported source "${source}": use a folder, a git URL, or gh:/github:/gitlab:/bitbucket:/sourcehut:`);
  }
  const { base, ref } = splitRef(source);
  if (/\.git\/?$/.test(base)) {
    return { kind: "git", url: pathToFileURL(resolve(cwd, expandHome(base))).href, ref };
  }
  return { kind: "folder", path: resolve(cwd, expandHome(source)) };
}

/** A short human description of where an install came from. */
export function describeSource(source: InstallSource): string {
  if (source.kind === "folder") return source.path;
  if (source.kind === "git") return source.ref ? `${source.url}#${source.ref}` : source.url;
  if (source.kind === "marketplace") return `${source.plugin}@${source.marketplace}`;
  return source.source;
}
