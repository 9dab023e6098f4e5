// Where zot keeps its files. Pure functions of (env, platform, home) so every platform's rule
// can be tested on any machine; `zotPaths()` binds them to the running process.
import { homedir } from "node:os";
import { join, posix, win32 } from "node:path";
import { sha256Hex } from "./lazy-node.ts";

export interface PathEnv {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  home: string;
}

/** `$ZOT_HOME`, else `$XDG_STATE_HOME/zot` on any platform, else the platform default. */
export function resolveZotHome({ env, platform, home }: PathEnv): string {
  const path = platform === "win32" ? win32 : posix;
  if (env.ZOT_HOME) return env.ZOT_HOME;
  if (env.XDG_STATE_HOME) return path.join(env.XDG_STATE_HOME, "zot");
  if (platform === "darwin") return path.join(home, "Library", "Application Support", "zot");
  if (platform === "win32") {
    const local = env.LOCALAPPDATA ?? path.join(home, "AppData", "Local");
    return path.join(local, "zot");
  }
  return path.join(home, ".local", "state", "zot");
}

export interface ZotPaths {
  home: string;
  config: string;
  auth: string;
  /** The user's models and corrections to the known ones. */
  models: string;
  systemPrompt: string;
  sessions: string;
  skills: string;
  extensions: string;
  logs: string;
  hostLog: string;
}

export function pathsUnder(home: string, platform: NodeJS.Platform = process.platform): ZotPaths {
  const path = platform === "win32" ? win32 : posix;
  return {
    home,
    config: path.join(home, "config.json"),
    auth: path.join(home, "auth.json"),
    models: path.join(home, "models.json"),
    systemPrompt: path.join(home, "SYSTEM.md"),
    sessions: path.join(home, "sessions"),
    skills: path.join(home, "skills"),
    extensions: path.join(home, "extensions"),
    logs: path.join(home, "logs"),
    hostLog: path.join(home, "logs", "zot.log"),
  };
}

/**
 * An extension's name as one file or folder name, one name to one entry: letters, digits, `.`, `_`
 * and `-` stay, every other character becomes `%XX` per UTF-8 byte (`my ext` → `my%20ext`, apart
 * from `my_ext`; `%` itself is `%25`). Names that differ only by case are refused elsewhere.
 */
export function extensionFileName(name: string): string {
  return Array.from(name, (char) => (/^[A-Za-z0-9._-]$/.test(char) ? char
    : Array.from(new TextEncoder().encode(char), (byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join(""))).join("");
}

/** The log file an extension's stderr is appended to. */
export function extensionLogPath(paths: ZotPaths, name: string): string {
  return join(paths.logs, `ext-${extensionFileName(name)}.log`);
}

/** Project-local extensions live in `<cwd>/.zot/extensions`, skills in `<cwd>/.zot/skills`. */
export function projectExtensionsDir(cwd: string): string {
  return join(cwd, ".zot", "extensions");
}

export function projectSkillsDir(cwd: string): string {
  return join(cwd, ".zot", "skills");
}

/**
 * A filesystem-safe folder name for a working directory, used to group sessions by project: a
 * readable form of the path (at most 80 characters, so deep paths stay under name limits) and a
 * hash of the exact path, so `/a/b-c` and `/a/b/c` (readable as `a-b-c` both) never share
 * sessions.
 */
export function cwdKey(cwd: string): string {
  const readable = cwd.replace(/[\\/:]+/g, "-").replace(/^-+/, "").replace(/[^A-Za-z0-9._-]/g, "_") || "root";
  const hash = sha256Hex(cwd).slice(0, 8);
  return `${readable.slice(-80)}-${hash}`;
}

export function zotPaths(env: Record<string, string | undefined> = process.env): ZotPaths {
  return pathsUnder(resolveZotHome({ env, platform: process.platform, home: homedir() }));
}
