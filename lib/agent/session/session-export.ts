// The portable `.zotsession` file: one JSON document with a session's header (its fork link
// included), its replayed transcript (images inline, as the session holds them) and its latest
// model. Credentials never go in: sessions hold none, and any value the caller names as a
// secret (the API keys in use) is blanked where a tool output echoed it. Import checks the
// whole file before it writes anything, and writes the new session file atomically.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../fs/atomic-write.ts";
import { ZOT_VERSION } from "../../version.ts";
import { redactStrings, secretRedactor } from "./export-redaction.ts";
import { isEntry, isHeader, SESSION_FORMAT_VERSION, type SessionEntry, type SessionHeader } from "./session-entries.ts";
import { SessionError, type LoadedSession } from "./session-file.ts";
import { sessionDirFor, type SessionLocation } from "./session-select.ts";
import type { Message } from "../../providers/types.ts";

export const EXPORT_FORMAT = "zotsession";
export const EXPORT_VERSION = 1;

interface ExportDocument {
  format: typeof EXPORT_FORMAT;
  version: number;
  exported_at: string;
  zot_version: string;
  session: SessionHeader;
  provider: string;
  model: string;
  messages: Message[];
}

/** The export of a loaded session, as text, with `secrets` and their base64 forms blanked (see export-redaction). */
export function exportText(session: LoadedSession, options: { secrets?: string[]; now?: Date } = {}): string {
  const redact = secretRedactor(options.secrets ?? []);
  const document: ExportDocument = {
    format: EXPORT_FORMAT, version: EXPORT_VERSION, exported_at: (options.now ?? new Date()).toISOString(), zot_version: ZOT_VERSION,
    session: redactStrings(session.header, redact), provider: session.provider, model: session.model, messages: redactStrings(session.messages, redact),
  };
  return `${JSON.stringify(document)}\n`;
}

/** Reads and checks an export; a damaged or foreign file throws a SessionError that says what is wrong. */
export function readExport(path: string): ExportDocument {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new SessionError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let value: Partial<ExportDocument>;
  try {
    value = JSON.parse(text) as Partial<ExportDocument>;
  } catch {
    throw new SessionError(`${path} is damaged: it is not one JSON document (a .zotsession file written by /export is)`);
  }
  if (typeof value !== "object" || value === null || value.format !== EXPORT_FORMAT) {
    throw new SessionError(`${path} is not a zot session export (no "format": "${EXPORT_FORMAT}")`);
  }
  if (typeof value.version !== "number" || value.version > EXPORT_VERSION) {
    throw new SessionError(`${path} was written by a newer zot (export version ${String(value.version)}; this zot reads ${EXPORT_VERSION}): upgrade zot to import it`);
  }
  if (!isHeader(value.session) || !/^[A-Za-z0-9._-]+$/.test(value.session.id)) throw new SessionError(`${path} is damaged: its session header is missing or invalid`);
  if (!Array.isArray(value.messages)) throw new SessionError(`${path} is damaged: it has no message list`);
  const bad = value.messages.findIndex((message) => !isEntry({ type: "message", message }));
  if (bad !== -1) throw new SessionError(`${path} is damaged: message ${bad} is not a user, assistant or tool_result message`);
  if (typeof value.provider !== "string" || typeof value.model !== "string") throw new SessionError(`${path} is damaged: it names no provider and model`);
  return value as ExportDocument;
}

/**
 * Adds an export to this project's sessions under its own id (so the fork links of a family
 * exported together still join). Refuses, changing nothing, when the file is damaged or foreign
 * or this project already has a session of that id.
 */
export async function importSession(path: string, location: SessionLocation, now = new Date()): Promise<{ id: string; path: string; messages: number }> {
  const document = readExport(path);
  const id = document.session.id;
  const target = join(sessionDirFor(location), `${id}.jsonl`);
  if (existsSync(target)) throw new SessionError(`this project already has session ${id} (imported before?); nothing was changed`);
  const header: SessionHeader = {
    ...document.session, type: "session", version: SESSION_FORMAT_VERSION, cwd: location.cwd,
    imported: { cwd: document.session.cwd, at: now.toISOString() },
  };
  const entries: SessionEntry[] = document.messages.map((message) => ({ type: "message", message }));
  if (document.provider !== header.provider || document.model !== header.model) {
    entries.push({ type: "model", provider: document.provider, model: document.model });
  }
  await writeFileAtomic(target, [header, ...entries].map((line) => `${JSON.stringify(line)}\n`).join(""), 0o600);
  return { id, path: target, messages: document.messages.length };
}
