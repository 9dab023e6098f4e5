// This project's sessions as a reader sees them: one summary per session file (first prompt,
// message count, age, its fork origin) and the families the fork links make (a root and the
// branches forked from it, at any depth). Read-only: a damaged file is listed as damaged.
import { listSessions, type SessionLocation } from "./session-select.ts";
import { readSession, SessionError } from "./session-file.ts";
import type { SessionParent } from "./session-entries.ts";
import type { Message } from "../../providers/types.ts";

export interface SessionSummary {
  id: string;
  path: string;
  created: string;
  modified: Date;
  messages: number;
  /** The first user prompt's text, on one line (empty for a session without one). */
  firstPrompt: string;
  parent?: SessionParent;
  /** Why it could not be read, when it could not. */
  damaged?: string;
}

export interface SessionBranch {
  session: SessionSummary;
  children: SessionBranch[];
}

/** The text of a user message, on one line ("" for a tool result or an image-only message). */
export function promptText(message: Message | undefined): string {
  if (message?.role !== "user") return "";
  return message.content.map((block) => (block.type === "text" ? block.text : "")).join(" ").replace(/\s+/g, " ").trim();
}

export function summarize(listing: { id: string; path: string; modified: Date }): SessionSummary {
  try {
    const loaded = readSession(listing.path);
    return {
      id: loaded.header.id, path: listing.path, created: loaded.header.created, modified: listing.modified,
      messages: loaded.messages.length, firstPrompt: promptText(loaded.messages.find((m) => promptText(m) !== "")),
      ...(loaded.header.parent ? { parent: loaded.header.parent } : {}),
    };
  } catch (err) {
    const why = err instanceof SessionError ? err.message : (err as Error).message;
    return { id: listing.id, path: listing.path, created: "", modified: listing.modified, messages: 0, firstPrompt: "", damaged: why };
  }
}

/** This project's sessions, newest activity first. */
export function sessionSummaries(location: SessionLocation): SessionSummary[] {
  return listSessions(location).map(summarize);
}

/**
 * The families of `summaries`: each root is a session with no parent here (its parent was
 * removed, or it never had one), its branches below it, oldest first. Newest family first.
 */
export function sessionFamilies(summaries: SessionSummary[]): SessionBranch[] {
  const byId = new Map(summaries.map((s) => [s.id, { session: s, children: [] as SessionBranch[] }]));
  const roots: SessionBranch[] = [];
  for (const branch of byId.values()) {
    const parent = branch.session.parent ? byId.get(branch.session.parent.id) : undefined;
    // A link that would close a loop (hand-edited files) makes a root instead.
    if (parent && !descendsFrom(parent, branch, byId)) parent.children.push(branch);
    else roots.push(branch);
  }
  const oldestFirst = (a: SessionBranch, b: SessionBranch) => a.session.created.localeCompare(b.session.created) || a.session.id.localeCompare(b.session.id);
  for (const branch of byId.values()) branch.children.sort(oldestFirst);
  return roots.sort((a, b) => latest(b) - latest(a));
}

/** The family holding session `id`, if any. */
export function familyOf(families: SessionBranch[], id: string): SessionBranch | undefined {
  return families.find((root) => contains(root, id));
}

function contains(branch: SessionBranch, id: string): boolean {
  return branch.session.id === id || branch.children.some((child) => contains(child, id));
}

function descendsFrom(candidate: SessionBranch, ancestor: SessionBranch, byId: Map<string, SessionBranch>): boolean {
  const seen = new Set<string>();
  for (let at: SessionBranch | undefined = candidate; at && !seen.has(at.session.id); at = at.session.parent ? byId.get(at.session.parent.id) : undefined) {
    if (at === ancestor) return true;
    seen.add(at.session.id);
  }
  return false;
}

function latest(branch: SessionBranch): number {
  return Math.max(branch.session.modified.getTime(), ...branch.children.map(latest));
}

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago". */
export function ageText(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return "just now";
  const [n, unit] = minutes < 60 ? [minutes, "minute"] : minutes < 48 * 60 ? [Math.floor(minutes / 60), "hour"] : [Math.floor(minutes / 1440), "day"];
  return `${n} ${unit}${n === 1 ? "" : "s"} ago`;
}

/** The tree as text lines: one per session, branches indented under their parent with the fork point. */
export function renderTree(families: SessionBranch[], options: { current?: string; now?: Date } = {}): string[] {
  const lines: string[] = [];
  const visit = (branch: SessionBranch, depth: number) => {
    const s = branch.session;
    const mark = s.id === options.current ? "*" : " ";
    const fork = s.parent ? ` (forked at message ${s.parent.message_index})` : "";
    const what = s.damaged ? `damaged: ${s.damaged}` : `${s.messages} messages, ${ageText((options.now ?? new Date()).getTime() - s.modified.getTime())}: ${clip(s.firstPrompt || "(no prompt)")}`;
    lines.push(`${mark} ${"  ".repeat(depth)}${depth > 0 ? "└ " : ""}${s.id}${fork}  ${what}`);
    for (const child of branch.children) visit(child, depth + 1);
  };
  for (const root of families) visit(root, 0);
  return lines;
}

function clip(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
