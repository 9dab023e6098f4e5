// Acting on one install: find it by name, remove it, enable or disable it. Every change is
// confined to a folder directly inside an extensions root, and manifest edits touch only the
// `enabled` value.
import { lstat, readFile, realpath, rm, unlink } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { removeTree } from "./remove-tree.ts";
import { MANIFEST_FILE } from "../catalog/manifest.ts";
import { PLUGIN_STATE } from "../catalog/plugin-manifest.ts";
import { rootFor, type ExtensionRoots, type InstallScope, type InstalledExtension } from "./installed.ts";
import { writeFileAtomic } from "../../fs/atomic-write.ts";

export class ExtensionNotFoundError extends Error {
  constructor(readonly query: string) {
    super(`no installed extension is named "${query}" (see \`zot ext list\`)`);
    this.name = "ExtensionNotFoundError";
  }
}

export class AmbiguousExtensionError extends Error {
  constructor(readonly query: string, readonly matches: InstalledExtension[]) {
    super(`"${query}" matches ${matches.length} installations; nothing was changed:\n`
      + matches.map((m) => `  ${m.path} (${m.scope}, name "${m.name}")`).join("\n")
      + "\nuse a unique folder name, or --project / --global to pick a scope");
    this.name = "AmbiguousExtensionError";
  }
}

/**
 * The one install whose manifest name or folder name is `query` (optionally within one scope).
 * Throws ExtensionNotFoundError or AmbiguousExtensionError (listing every matching path).
 */
export function findInstalled(
  installed: InstalledExtension[],
  query: string,
  scope?: InstallScope,
): InstalledExtension {
  const matches = installed.filter((ext) => (!scope || ext.scope === scope)
    && (ext.folder === query || (!ext.error && ext.name === query)));
  if (matches.length === 0) throw new ExtensionNotFoundError(query);
  if (matches.length > 1) throw new AmbiguousExtensionError(query, matches);
  return matches[0];
}

/** A server of a project's .mcp.json has no folder zot may change: that file belongs to the project. */
function assertOwnFolder(ext: InstalledExtension, verb: string): void {
  if (ext.source) throw new Error(`cannot ${verb} "${ext.name}": it is declared in ${ext.source}; edit that file instead`);
}

/** Throws unless `path` names an entry directly inside `root` (after resolving the root). */
async function assertDirectlyInside(path: string, root: string): Promise<void> {
  const name = basename(path);
  const realRoot = await realpath(root);
  const realParent = await realpath(dirname(resolve(path)));
  if (realParent !== realRoot || name === "" || name === "." || name === "..") {
    throw new Error(`refusing to touch ${path}: it is not directly inside ${root}`);
  }
}

/**
 * Deletes an install's folder (including state kept inside it). Only a folder directly inside
 * its scope's root is ever deleted; a symlinked install loses the link, not the link's target.
 */
export async function removeInstalled(ext: InstalledExtension, roots: ExtensionRoots): Promise<void> {
  assertOwnFolder(ext, "remove");
  await assertDirectlyInside(ext.path, rootFor(roots, ext.scope));
  const info = await lstat(ext.path);
  if (info.isSymbolicLink()) await unlink(ext.path);
  else await removeTree(ext.path);
}

export interface SetEnabledResult {
  /** False when the manifest already had that value (the file is left untouched). */
  changed: boolean;
  manifestPath: string;
}

/** Sets `enabled` in an install's manifest, keeping every other byte of the file as written. */
export async function setEnabled(ext: InstalledExtension, enabled: boolean): Promise<SetEnabledResult> {
  assertOwnFolder(ext, enabled ? "enable" : "disable");
  if (ext.kind === "plugin") {
    // A plugin's own files stay as shipped: zot keeps the switch beside them.
    const statePath = join(ext.path, PLUGIN_STATE);
    if (ext.enabled === enabled) return { changed: false, manifestPath: statePath };
    if (enabled) await rm(statePath, { force: true });
    else await writeFileAtomic(statePath, `${JSON.stringify({ enabled: false })}\n`);
    return { changed: true, manifestPath: statePath };
  }
  const manifestPath = join(ext.path, MANIFEST_FILE);
  const text = await readFile(manifestPath, "utf8");
  const next = rewriteEnabled(text, enabled, manifestPath);
  if (next === text) return { changed: false, manifestPath };
  await writeFileAtomic(manifestPath, next);
  return { changed: true, manifestPath };
}

interface Member {
  key: string;
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
}

/** Index just past the JSON string starting at `i` (a quote). */
function skipString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === "\\") j++;
    else if (text[j] === '"') return j + 1;
  }
  return text.length;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && " \t\r\n".includes(text[i])) i++;
  return i;
}

/** Index just past the JSON value starting at `i`, for text already known to parse. */
function skipValue(text: string, i: number): number {
  if (text[i] === '"') return skipString(text, i);
  if (text[i] === "{" || text[i] === "[") {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const c = text[j];
      if (c === '"') j = skipString(text, j) - 1;
      else if (c === "{" || c === "[") depth++;
      else if (c === "}" || c === "]") {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return text.length;
  }
  let j = i;
  while (j < text.length && !",}] \t\r\n".includes(text[j])) j++;
  return j;
}

/** The top-level members of a JSON object text, with their positions. */
function topLevelMembers(text: string): { open: number; close: number; members: Member[] } {
  let i = skipSpace(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  const open = i;
  const members: Member[] = [];
  i = skipSpace(text, i + 1);
  while (i < text.length && text[i] !== "}") {
    const keyStart = i;
    const keyEnd = skipString(text, i);
    const key = JSON.parse(text.slice(keyStart, keyEnd)) as string;
    const valueStart = skipSpace(text, skipSpace(text, keyEnd) + 1);
    const valueEnd = skipValue(text, valueStart);
    members.push({ key, keyStart, keyEnd, valueStart, valueEnd });
    i = skipSpace(text, valueEnd);
    if (text[i] === ",") i = skipSpace(text, i + 1);
  }
  return { open, close: i, members };
}

/**
 * Returns the manifest text with `enabled` set, changing nothing else: an existing top-level
 * `enabled` value is replaced in place; a missing one is appended after the last member using
 * the same separators and indentation as that member. Throws when the text is not a JSON object.
 */
export function rewriteEnabled(text: string, enabled: boolean, where = MANIFEST_FILE): string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${where}: invalid JSON, not changed: ${(err as Error).message}`);
  }
  if (!data || typeof data !== "object" || Array.isArray(data)) {
    throw new Error(`${where}: not a JSON object, not changed`);
  }
  const value = String(enabled);
  const { open, close, members } = topLevelMembers(text);
  const existing = members.filter((m) => m.key === "enabled");
  if (existing.length > 0) {
    let out = text;
    for (const m of existing.reverse()) out = out.slice(0, m.valueStart) + value + out.slice(m.valueEnd);
    return out;
  }
  const last = members.at(-1);
  if (!last) return `${text.slice(0, open + 1)}"enabled": ${value}${text.slice(close)}`;
  const before = members.length > 1 ? members[members.length - 2].valueEnd : open + 1;
  // The whitespace before the last key (after its comma) is the file's indentation style.
  const indent = text.slice(before, last.keyStart).replace(/^[ \t\r\n]*,/, "");
  const colon = text.slice(last.keyEnd, last.valueStart);
  return `${text.slice(0, last.valueEnd)},${indent}"enabled"${colon}${value}${text.slice(last.valueEnd)}`;
}
