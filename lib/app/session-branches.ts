// The run's session operations beyond new/resume: fork the open conversation at one of its
// prompts (and continue in the fork), the family tree of this project's sessions, and the
// portable export and import. Shared by the slash commands and rpc.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { AgentSession } from "../agent/session/agent-session.ts";
import { exportText, importSession } from "../agent/session/session-export.ts";
import { sessionFamilies, sessionSummaries, type SessionBranch } from "../agent/session/session-family.ts";
import { readSession, SessionError, type LoadedSession } from "../agent/session/session-file.ts";
import { SESSION_FORMAT_VERSION } from "../agent/session/session-entries.ts";
import { forkPoints, forkSession, type ForkPoint } from "../agent/session/session-fork.ts";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import { knownSecrets } from "./session-secrets.ts";

export interface SessionBranching {
  /** The open conversation's prompts a fork can start at. */
  forkPoints(): ForkPoint[];
  /**
   * Forks the open conversation before the user message at transcript index `messageIndex` and
   * continues in the fork (`session_end` session_switch); resolves with its id and that prompt's text.
   */
  fork(messageIndex: number): Promise<{ sessionId: string; prompt: string }>;
  /** This project's session families, and which session is open. */
  tree(): { current: string; families: SessionBranch[] };
  /** Writes the open conversation to a .zotsession file (default ./ID.zotsession); resolves with its path. */
  export(path?: string): Promise<string>;
  /** Adds an export to this project's sessions (resume it to continue it). */
  import(path: string): Promise<{ sessionId: string; messages: number }>;
}

export interface BranchingDeps {
  session: AgentSession;
  sessionsDir: string;
  env: Record<string, string | undefined>;
  /** Keys given other than through `env` (--api-key), blanked from exports too. */
  givenKeys?: readonly (string | undefined)[];
  /** Continues in saved session `id` (the runtime's switchSession). */
  switchTo(id: string): Promise<string>;
}

export function sessionBranching({ session, sessionsDir, env, givenKeys = [], switchTo }: BranchingDeps): SessionBranching {
  const location = () => ({ sessionsDir, cwd: session.cwd });
  return {
    forkPoints: () => forkPoints(session.messages),
    async fork(messageIndex) {
      if (session.running) throw new SessionError("cannot fork while the agent is working: wait for it, or abort first");
      if (!session.state.session_file) throw new SessionError("cannot fork: this run keeps no session files (--no-session)");
      const { provider, model } = session.state;
      const fork = forkSession({ ...location(), parentId: session.sessionId, messages: session.messages, messageIndex, provider, model });
      return { sessionId: await switchTo(fork.id), prompt: fork.prompt };
    },
    tree: () => ({ current: session.sessionId, families: sessionFamilies(sessionSummaries(location())) }),
    async export(path) {
      const target = resolve(session.cwd, path ?? `${session.sessionId}.zotsession`);
      await writeFileAtomic(target, exportText(openConversation(session), { secrets: knownSecrets(env, givenKeys) }), 0o600);
      return target;
    },
    async import(path) {
      const imported = await importSession(resolve(session.cwd, path), location());
      return { sessionId: imported.id, messages: imported.messages };
    },
  };
}

/** The open conversation as a loaded session: its file when written, else what is in memory (--no-session). */
function openConversation(session: AgentSession): LoadedSession {
  const file = session.state.session_file;
  if (file && existsSync(file)) return readSession(file);
  if (session.messages.length === 0) throw new SessionError("nothing to export yet: this conversation has no messages");
  const { provider, model } = session.state;
  return {
    header: { type: "session", version: SESSION_FORMAT_VERSION, id: session.sessionId, cwd: session.cwd, created: new Date().toISOString(), provider, model },
    messages: [...session.messages], provider, model, skippedLines: 0, interruptedCalls: 0, warnings: [],
  };
}
