// Which session a run uses: `--continue` (the latest for this cwd), `--resume [id]`,
// `--session PATH`, `--no-session`, or a new one. Sessions live under
// `$ZOT_HOME/sessions/<cwdKey(cwd)>/<session-id>.jsonl`.
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { cwdKey } from "../../paths.ts";
import { SessionError, SessionFile, type LoadedSession } from "./session-file.ts";
import { randomHex } from "../../random-id.ts";

export type SessionSelection =
  | { kind: "new" }
  | { kind: "continue" }
  /** Without `id`: the latest session of this cwd (the CLI may offer a list instead). */
  | { kind: "resume"; id?: string }
  | { kind: "path"; path: string }
  | { kind: "none" };

export interface SessionLocation {
  /** `$ZOT_HOME/sessions`. */
  sessionsDir: string;
  cwd: string;
}

export interface SessionListing {
  id: string;
  path: string;
  modified: Date;
}

export interface OpenedSession {
  id: string;
  /** The writer; undefined with `--no-session` (the transcript lives in memory only). */
  file?: SessionFile;
  /** The contents of an existing session that was reopened. */
  loaded?: LoadedSession;
}

/** A sortable, unique id: UTC time to the second plus random hex. */
export function newSessionId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z").replace("T", "-");
  return `${stamp}-${randomHex(3)}`;
}

export function sessionDirFor({ sessionsDir, cwd }: SessionLocation): string {
  return join(sessionsDir, cwdKey(cwd));
}

/** This cwd's sessions, newest activity first. */
export function listSessions(location: SessionLocation): SessionListing[] {
  const dir = sessionDirFor(location);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const sessions: SessionListing[] = [];
  for (const name of names) {
    if (!name.endsWith(".jsonl")) continue;
    const path = join(dir, name);
    try {
      sessions.push({ id: name.slice(0, -".jsonl".length), path, modified: statSync(path).mtime });
    } catch {
      // vanished between listing and stat
    }
  }
  return sessions.sort((a, b) => b.modified.getTime() - a.modified.getTime() || b.id.localeCompare(a.id));
}

/** The file of session `id`: this cwd's first, then any cwd's. */
export function findSession(location: SessionLocation, id: string): string | undefined {
  if (!/^[A-Za-z0-9._-]+$/.test(id)) return undefined;
  const own = join(sessionDirFor(location), `${id}.jsonl`);
  if (existsSync(own)) return own;
  let dirs: string[];
  try {
    dirs = readdirSync(location.sessionsDir);
  } catch {
    return undefined;
  }
  for (const dir of dirs) {
    const candidate = join(location.sessionsDir, dir, `${id}.jsonl`);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

export interface OpenSessionOptions extends SessionLocation {
  provider: string;
  model: string;
  now?: Date;
}

/** Resolves a selection to a session. Throws SessionError when a named session cannot be used. */
export function openSession(selection: SessionSelection, options: OpenSessionOptions): OpenedSession {
  const fresh = (path?: string, id = newSessionId(options.now)): OpenedSession => {
    const file = SessionFile.create(path ?? join(sessionDirFor(options), `${id}.jsonl`), {
      id,
      cwd: options.cwd,
      created: (options.now ?? new Date()).toISOString(),
      provider: options.provider,
      model: options.model,
    });
    return { id, file };
  };
  const reopen = (path: string): OpenedSession => {
    const { file, session } = SessionFile.open(path);
    return { id: file.id, file, loaded: session };
  };

  switch (selection.kind) {
    case "none":
      return { id: newSessionId(options.now) };
    case "new":
      return fresh();
    case "continue": {
      const latest = listSessions(options)[0];
      return latest ? reopen(latest.path) : fresh();
    }
    case "resume": {
      if (selection.id === undefined) {
        const latest = listSessions(options)[0];
        if (!latest) throw new SessionError(`no session to resume for ${options.cwd}`);
        return reopen(latest.path);
      }
      const path = findSession(options, selection.id);
      if (!path) throw new SessionError(`no session with id "${selection.id}" (sessions of this directory are in ${sessionDirFor(options)})`);
      return reopen(path);
    }
    case "path": {
      const path = resolve(options.cwd, selection.path);
      if (existsSync(path)) return reopen(path);
      return fresh(path, basename(path).replace(/\.jsonl$/, "") || newSessionId(options.now));
    }
  }
}
