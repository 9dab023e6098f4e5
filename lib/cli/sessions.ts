// `zot sessions [list | show ID | rm ID | tree | export ID [PATH] | import PATH]`: this project's
// (the current directory's) sessions without starting a run. `show` prints a conversation as the
// REPL's resume view does; `rm` removes one file, its branches keep their own.
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { ageText, renderTree, sessionFamilies, sessionSummaries, type SessionSummary } from "../agent/session/session-family.ts";
import { exportText, importSession } from "../agent/session/session-export.ts";
import { writeFileAtomic } from "../fs/atomic-write.ts";
import { readSession, SessionError } from "../agent/session/session-file.ts";
import { findSession, sessionDirFor, type SessionLocation } from "../agent/session/session-select.ts";
import { recapLines } from "../modes/repl/recap.ts";
import { makeStyle } from "../modes/repl/style.ts";
import { zotPaths } from "../paths.ts";
import { printable } from "../terminal-text.ts";
import { knownSecrets } from "../app/session-secrets.ts";
import { CheckpointStore } from "../coding/checkpoints/checkpoint-store.ts";
import { helpFor, type HelpOut } from "./usage.ts";

export function sessionsUsage(out: HelpOut, env: Record<string, string | undefined>): string {
  return helpFor({
    name: "zot sessions", description: "This project's conversations.",
    usage: ["zot sessions [list]", "zot sessions show ID", "zot sessions rm ID", "zot sessions tree", "zot sessions export ID [PATH]",
      "zot sessions import PATH"],
    sections: [{ title: "COMMANDS", rows: [
      ["list", "sessions newest first: id, age, messages, branch, first prompt (the default)"],
      ["show ID", "the conversation, as `zot --resume ID` shows it"],
      ["rm ID", "remove one session file (its branches stay)"],
      ["tree", "the branches /fork made, under the session they came from"],
      ["export ID [PATH]", "write a portable .zotsession file (default ./ID.zotsession)"],
      ["import PATH", "add an exported session to this project's sessions; zot -c then continues it"],
    ] }],
  }, out, env);
}

const VERBS: Record<string, number> = { list: 0, show: 1, rm: 1, tree: 0, export: 1, import: 1 };

export async function runSessions(argv: string[], env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Promise<number> {
  const [verb = "list", ...rest] = argv;
  if (verb === "--help" || verb === "-h" || verb === "help") {
    process.stdout.write(sessionsUsage(process.stdout, env));
    return 0;
  }
  const needed = VERBS[verb];
  const extra = verb === "export" ? 1 : 0;
  if (needed === undefined || rest.length < needed || rest.length > needed + extra || rest.some((a) => a.startsWith("-"))) {
    const what = needed === undefined ? `unknown command "sessions ${verb}"` : `"sessions ${verb}" takes ${verb === "export" ? "ID [PATH]" : needed ? "one argument" : "no argument"}`;
    process.stderr.write(`zot: ${what}\n${sessionsUsage(process.stderr, env)}`);
    return 2;
  }
  const location: SessionLocation = { sessionsDir: zotPaths(env).sessions, cwd: resolve(cwd) };
  try {
    process.stdout.write(printable(`${(await run(verb, rest, location, env)).join("\n")}\n`));
    return 0;
  } catch (err) {
    if (!(err instanceof SessionError)) throw err;
    process.stderr.write(`zot: ${err.message}\n`);
    return 1;
  }
}

async function run(verb: string, args: string[], location: SessionLocation, env: Record<string, string | undefined>): Promise<string[]> {
  switch (verb) {
    case "show": {
      const loaded = readSession(pathOf(location, args[0]!));
      const style = makeStyle(false);
      return recapLines(loaded.messages, { style, columns: 100, rows: Number.MAX_SAFE_INTEGER, sessionId: loaded.header.id,
        preview: (_name, toolArgs) => JSON.stringify(toolArgs) }).slice(1);
    }
    case "rm": {
      const path = pathOf(location, args[0]!);
      rmSync(path);
      return [`removed session ${args[0]} (${path})`];
    }
    case "tree": {
      const families = sessionFamilies(sessionSummaries(location));
      return families.length ? renderTree(families) : [noSessions(location)];
    }
    case "export": {
      const [id, target] = args as [string, string | undefined];
      const path = resolve(location.cwd, target ?? `${id}.zotsession`);
      await writeFileAtomic(path, exportText(readSession(pathOf(location, id)), { secrets: knownSecrets(env) }), 0o600);
      return [`exported session ${id} to ${path}`];
    }
    case "import": {
      const imported = await importSession(resolve(location.cwd, args[0]!), location);
      return [`imported session ${imported.id} (${imported.messages} messages); continue it with zot -c or zot --resume ${imported.id}`];
    }
    default: {
      const summaries = sessionSummaries(location);
      const checkpoints = new CheckpointStore(join(sessionDirFor(location), "checkpoints"));
      return summaries.length ? summaries.map((summary) => listLine(summary, checkpoints.list(summary.id).length)) : [noSessions(location)];
    }
  }
}

/** One session of this project: its own folder only, so `rm` never reaches another project's. */
function pathOf(location: SessionLocation, id: string): string {
  const path = findSession(location, id);
  if (!path || !path.startsWith(`${sessionDirFor(location)}/`)) throw new SessionError(`no session "${id}" in this project (zot sessions lists them)`);
  return path;
}

/** A session's line; `checkpoints`: how many of its prompts /rewind can put files back for. */
function listLine(s: SessionSummary, checkpoints: number): string {
  const branch = s.parent ? `  fork of ${s.parent.id}` : "";
  if (s.damaged) return `${s.id}  damaged: ${s.damaged}`;
  const rewind = checkpoints > 0 ? `  ${checkpoints} checkpoint${checkpoints === 1 ? "" : "s"}` : "";
  return `${s.id}  ${ageText(Date.now() - s.modified.getTime())}  ${s.messages} messages${branch}${rewind}  ${s.firstPrompt.slice(0, 60) || "(no prompt)"}`;
}

function noSessions(location: SessionLocation): string {
  return `no sessions for ${location.cwd} yet`;
}
