// Hooks in Claude Code's shape, run by the real zot bundle against the scripted model server:
// config.json's `hooks` key names the test hook (test/fixtures/hooks/hook.sh and hook.py, the
// same modes in sh and Python), which records its input to $HOOK_RECORD and answers as told.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Turn } from "../../support/model-server.ts";
import { makeWorld, ROOT, type World } from "../support.ts";

const FIXTURES = join(ROOT, "test", "fixtures", "hooks");

/** The real interpreter, not a version manager's shim (which starts ten times slower). */
const PYTHON = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();

export const q = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;

/** The test hook in each language: `hook(name, mode, ...args)` is its command line. */
export const LANGUAGES = [
  { lang: "sh", hook: (...args: string[]) => `sh ${q(join(FIXTURES, "hook.sh"))} ${args.map(q).join(" ")}` },
  { lang: "python", hook: (...args: string[]) => `${q(PYTHON)} ${q(join(FIXTURES, "hook.py"))} ${args.map(q).join(" ")}` },
] as const;
export type Language = (typeof LANGUAGES)[number];

export interface HookRecord {
  name: string;
  input: Record<string, any>;
}

export interface HookWorld extends World {
  record: string;
  /** What the hooks received, in order. */
  records(): HookRecord[];
}

/** A hook entry: `{event: [{matcher, hooks: [{type: "command", command, …}]}]}`. */
export const hook = (command: string, extra: Record<string, unknown> = {}) => ({ type: "command", command, ...extra });

type Reply = (name: string, value: unknown) => string;

/**
 * A world whose config.json holds `hooks` (or what `hooks(reply)` returns: `reply` writes a JSON
 * reply file for the `json` mode and gives its path).
 */
export async function hooksWorld(script: Turn[], hooks: Record<string, unknown> | ((reply: Reply) => Record<string, unknown>),
  config: Record<string, unknown> = {}): Promise<HookWorld> {
  const world = await makeWorld(script);
  const record = join(world.home, "..", "record.jsonl");
  world.env.HOOK_RECORD = record;
  const reply: Reply = (name, value) => {
    const path = join(world.home, "..", `${name}.json`);
    writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
    return path;
  };
  writeFileSync(join(world.home, "config.json"), JSON.stringify({ ...config, hooks: typeof hooks === "function" ? hooks(reply) : hooks }));
  return Object.assign(world, {
    record,
    records: () => (existsSync(record) ? readFileSync(record, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as HookRecord) : []),
  });
}

/** Everything the model was sent in request `n` (0-based), as text. */
export const sentToModel = (w: World, n: number): string => JSON.stringify(w.server.requests[n]?.body ?? null);

/** A model turn that calls bash with `command`. */
export const bashTurn = (command: string, id = "call_1"): Turn => ({ tool_calls: [{ id, name: "bash", args: { command } }], stop: "tool_use" });
