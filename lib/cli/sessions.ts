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
import { formatTable, tableWidth } from "./table.ts";

export function sessionsUsage(out: HelpOut, env: Record<string, string | undefined>): string {
  return helpFor({
    name: "zot sessions", description: "This project's conversations.",
    usage: ["zot sessions [list] [--json]", "zot sessions show ID", "zot sessions rm ID [--yes]", "zot sessions tree", "zot sessions export ID [PATH]",
      "zot sessions import PATH"],
    sections: [{ title: "COMMANDS", rows: [
      ["list", "sessions newest first: id, age, messages, checkpoints, branch, first prompt (the default); --json for scripts"],
      ["show ID", "the conversation, as `zot --resume ID` shows it"],
      ["rm ID", "remove one session file (its branches stay); asks first, --yes does not"],
      ["tree", "the branches /fork made, under the session they came from"],
      ["export ID [PATH]", "write a portable .zotsession file (default ./ID.zotsession)"],
      ["import PATH", "add an exported session to this project's sessions; zot -c then continues it"],
    ] }, { title: "IDS", rows: [["", "an ID may be shortened to any prefix that only one of this project's sessions has"]] },
    { title: "EXAMPLE", rows: [["", "zot sessions --json | jq -r '.[0].id'"]] }],
  }, out, env);
}

const VERBS: Record<string, number> = { list: 0, show: 1, rm: 1, tree: 0, export: 1, import: 1 };

/** The flags each verb takes. */
const FLAGS: Record<string, string[]> = { list: ["--json"], rm: ["--yes", "-y"] };

export async function runSessions(argv: string[], env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Promise<number> {
  if (argv.some((a) => a === "--help" || a === "-h") || argv[0] === "help") {
    process.stdout.write(sessionsUsage(process.stdout, env));
    return 0;
  }
  const [verb = "list", ...all] = argv[0]?.startsWith("-") ? ["list", ...argv] : argv;
  const flags = new Set(all.filter((a) => a.startsWith("-")));
  const rest = all.filter((a) => !a.startsWith("-"));
  const needed = VERBS[verb];
  const extra = verb === "export" ? 1 : 0;
  const unknownFlag = [...flags].find((f) => !(FLAGS[verb] ?? []).includes(f));
  if (needed === undefined || rest.length < needed || rest.length > needed + extra || unknownFlag) {
    const what = needed === undefined ? `unknown command "sessions ${verb}"` : unknownFlag ? `"sessions ${verb}" has no option ${unknownFlag}`
      : `"sessions ${verb}" takes ${verb === "export" ? "ID [PATH]" : needed ? "one argument" : "no argument"}`;
    process.stderr.write(`zot: ${what}\n${sessionsUsage(process.stderr, env)}`);
    return 2;
  }
  const location: SessionLocation = { sessionsDir: zotPaths(env).sessions, cwd: resolve(cwd) };
  try {
    if (verb === "rm" && !flags.has("--yes") && !flags.has("-y") && !(await confirmRemoval(pathOf(location, rest[0]!)))) return 1;
    if (verb === "list" && flags.has("--json")) {
      process.stdout.write(`${JSON.stringify(listJson(location))}\n`);
      return 0;
    }
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
      // As the live REPL shows it: each answer rendered as markdown, a line per tool call.
      // Plain text: the output goes through printable(), which shows control characters rather than passing them.
      const color = false;
      const style = makeStyle(color);
      const columns = terminalWidth(env);
      const { createMarkdownStream } = await import("../modes/repl/markdown-setup.ts");
      const answer = (text: string) => {
        const stream = createMarkdownStream({ style, color, env });
        return [...stream.append(text, columns - 1), ...stream.finish(columns - 1)];
      };
      return recapLines(loaded.messages, { style, columns, rows: Number.MAX_SAFE_INTEGER, sessionId: loaded.header.id,
        preview: (_name, toolArgs) => JSON.stringify(toolArgs), answer }).slice(1);
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
      if (summaries.length === 0) return [noSessions(location)];
      return listTable(summaries.map((summary) => ({ summary, checkpoints: checkpoints.list(summary.id).length })), tableWidth(env));
    }
  }
}

/**
 * One session of this project, by its id or a prefix only it has: its own folder only, so `rm`
 * never reaches another project's.
 */
function pathOf(location: SessionLocation, id: string): string {
  const own = `${sessionDirFor(location)}/`;
  const path = findSession(location, id);
  if (path && path.startsWith(own)) return path;
  const matches = sessionSummaries(location).filter((s) => s.id.startsWith(id)).map((s) => s.id);
  if (matches.length === 1) return join(sessionDirFor(location), `${matches[0]}.jsonl`);
  if (matches.length > 1) throw new SessionError(`"${id}" is the start of ${matches.length} sessions (${matches.slice(0, 5).join(", ")}${matches.length > 5 ? ", …" : ""}); give more of the id`);
  throw new SessionError(`no session "${id}" in this project (zot sessions lists them)`);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The sessions as a table under a header, the first prompt cut to fit `width`. */
function listTable(rows: Array<{ summary: SessionSummary; checkpoints: number }>, width: number | undefined): string[] {
  const cells = rows.map(({ summary: s, checkpoints }) => s.damaged ? [s.id, "damaged", "", "", s.damaged] : [
    s.id, ageText(Date.now() - s.modified.getTime()), plural(s.messages, "message"),
    [checkpoints > 0 ? plural(checkpoints, "checkpoint") : "", s.parent ? `fork of ${s.parent.id}` : ""].filter(Boolean).join(", "),
    s.firstPrompt || "(no prompt)",
  ]);
  return formatTable([["ID", "AGE", "MESSAGES", "REWIND, BRANCH", "FIRST PROMPT"], ...cells], width).split("\n");
}

/** The terminal's width (COLUMNS when set), or 100 when output is not a terminal. */
const terminalWidth = (env: Record<string, string | undefined>): number => tableWidth(env) ?? 100;

/** `zot sessions --json`: each session as data. */
function listJson(location: SessionLocation): unknown[] {
  const checkpoints = new CheckpointStore(join(sessionDirFor(location), "checkpoints"));
  return sessionSummaries(location).map((s) => ({
    id: s.id, modified: s.modified.toISOString(), created: s.created, messages: s.messages, first_prompt: s.firstPrompt,
    checkpoints: checkpoints.list(s.id).length, ...(s.parent ? { parent: s.parent } : {}), ...(s.damaged ? { damaged: s.damaged } : {}), path: s.path,
  }));
}

/** `rm` without --yes: asks on a terminal, refuses without one. */
async function confirmRemoval(path: string): Promise<boolean> {
  if (!process.stdin.isTTY) {
    process.stderr.write(`zot: sessions rm removes ${path}; without a terminal to ask on, add --yes\n`);
    return false;
  }
  const { createInterface } = await import("node:readline/promises");
  const ask = createInterface({ input: process.stdin, output: process.stderr });
  const answer = (await ask.question(`Remove ${path}? [y/N] `)).trim().toLowerCase();
  ask.close();
  return answer === "y" || answer === "yes";
}

function noSessions(location: SessionLocation): string {
  return `no sessions for ${location.cwd} yet`;
}
