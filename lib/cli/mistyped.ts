// A one-word prompt that looks like a command (`zot verison`, `zot doctor`) is most likely a
// mistyped or guessed command, not something to pay a model request for. Such a word is refused
// with a pointer to the command meant, and `zot -- WORD` still sends it.
import { ROOT_COMMANDS } from "./commands.ts";

/** Commands people try that zot spells differently, and what to run instead. */
const ELSEWHERE: Record<string, string> = {
  version: "zot --version",
  help: "zot --help",
  usage: "zot --help",
  update: "zot upgrade",
  "self-update": "zot upgrade",
  selfupdate: "zot upgrade",
  doctor: "zot ext doctor",
  status: "zot ext doctor",
  install: "zot ext install",
  add: "zot ext install",
  uninstall: "zot ext remove",
  remove: "zot ext remove",
  list: "zot ext list",
  ls: "zot ext list",
  logs: "zot ext logs",
  new: "zot ext new",
  serve: "zot mcp serve",
  init: "zot login",
  setup: "zot login",
  auth: "zot login",
  config: "zot --help",
  settings: "zot --help",
  models: "zot --list-models",
  sessions: "zot --resume",
  resume: "zot --resume",
  continue: "zot --continue",
};

/**
 * Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours.
 * Plain loops: on a cold start Array.from, spread and fill cost most of a millisecond on first use.
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [];
    for (let j = 0; j <= b.length; j++) row.push(i === 0 ? j : j === 0 ? i : 0);
    d.push(row);
  }
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = d[i - 1]![j - 1]! + cost;
      if (d[i - 1]![j]! + 1 < best) best = d[i - 1]![j]! + 1;
      if (d[i]![j - 1]! + 1 < best) best = d[i]![j - 1]! + 1;
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1] && d[i - 2]![j - 2]! + 1 < best) best = d[i - 2]![j - 2]! + 1;
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * How far a word may be from a command's name and still count as a try at it: 2 (the rule), but
 * 1 for three-letter names (`edit` and `test` are two edits from `ext`) and for a word that does
 * not start with the name's letter (`events` is two from `agents`), and for the words of
 * ELSEWHERE only slips of one in longer words (`hello` is two from `help`).
 */
function reach(name: string, typed: string, ownCommand: boolean): number {
  if (!ownCommand) return name.length >= 5 ? 1 : 0;
  return name.length <= 3 || typed[0] !== name[0] ? 1 : 2;
}

/** What `word` most likely meant (`zot --version`), or undefined when it reads as a prompt. */
export function commandMeant(word: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z-]*$/.test(word)) return undefined;
  const typed = word.toLowerCase();
  let best: { target: string; distance: number } | undefined;
  const consider = (name: string, target: string, ownCommand: boolean) => {
    const allowed = reach(name, typed, ownCommand);
    // Words further apart in length are further apart in edits: most prompts stop here.
    if (Math.abs(typed.length - name.length) > allowed) return;
    const distance = editDistance(typed, name);
    if (distance <= allowed && (!best || distance < best.distance)) best = { target, distance };
  };
  for (const command of ROOT_COMMANDS) consider(command.name, `zot ${command.name}`, true);
  for (const [name, target] of Object.entries(ELSEWHERE)) consider(name, target, false);
  return best?.target;
}

/** The usage error for a prompt that is one command-like word, or undefined for a prompt to send. */
export function mistypedCommandMessage(word: string): string | undefined {
  const meant = commandMeant(word);
  if (meant === undefined) return undefined;
  return `\`${word}\` is not a command; did you mean \`${meant}\`? To send it as a prompt: zot -- ${word}`;
}
