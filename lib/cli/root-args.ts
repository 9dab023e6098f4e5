// Flags of the root command (host.md "Invocation"), defined in citty's form (its types render
// the usage). Read here by citty's rules, plus what citty cannot do: repeatable flags (-e,
// --append-system-prompt), `-r [ID]` with an optional value, and refusing unknown flags.
import type { ArgsDef } from "citty";
import type { RunConfigInput } from "../app/run-config.ts";
import type { SessionSelection } from "../agent/session/session-select.ts";
import { UsageError } from "../errors.ts";
import { isProviderName } from "../providers/index.ts";
import type { RpcListen } from "../modes/rpc/rpc-listen.ts";
import { isLoopbackName } from "../protocol/socket-access.ts";
import { MODES, PROVIDER_NAMES, REASONING_LEVELS } from "./flag-values.ts";
import { mistypedCommandMessage } from "./mistyped.ts";

export const ROOT_ARGS = {
  prompt: { type: "positional", required: false, description: "prompt to submit (a leading / runs a slash command)" },
  print: { type: "boolean", alias: "p", description: "run to completion and print the final assistant text" },
  mode: { type: "string", valueHint: MODES.join("|"), description: "output mode" },
  json: { type: "boolean", description: "same as --mode json" },
  listen: { type: "string", valueHint: "URL", description: "rpc mode: serve over WebSocket, e.g. ws://127.0.0.1:PORT (loopback only, behind a token: ZOT_RPC_TOKEN or one printed at start; port 0 picks one)" },
  "listen-any": { type: "boolean", description: "with --listen: any host and Origin (needs ZOT_RPC_TOKEN)" },
  provider: { type: "string", valueHint: PROVIDER_NAMES.join("|"), description: "model provider (openai also serves OpenAI-compatible servers; ollama a local Ollama, no key; the others are OpenAI-compatible clouds)" },
  model: { type: "string", valueHint: "ID", description: "model id" },
  "api-key": { type: "string", valueHint: "KEY", description: "API key (else env, else $ZOT_HOME/auth.json)" },
  "base-url": { type: "string", valueHint: "URL", description: "provider endpoint" },
  "system-prompt": { type: "string", valueHint: "TEXT", description: "replace the system prompt" },
  "append-system-prompt": { type: "string", valueHint: "TEXT", description: "extend the system prompt (repeatable)" },
  reasoning: { type: "string", valueHint: REASONING_LEVELS.join("|"), description: "reasoning effort where supported" },
  theme: { type: "string", valueHint: "NAME", description: "the REPL's colours: dark, light (else ZOT_THEME, then the last /theme)" },
  continue: { type: "boolean", alias: "c", description: "continue the latest session in this directory" },
  resume: { type: "string", alias: "r", valueHint: "ID", description: "resume a session (the latest without ID)" },
  session: { type: "string", valueHint: "PATH", description: "use this session file" },
  "no-session": { type: "boolean", description: "do not persist the session" },
  cwd: { type: "string", valueHint: "PATH", description: "working directory of the agent and its tools" },
  "no-tools": { type: "boolean", description: "no built-in tools" },
  tools: { type: "string", valueHint: "a,b", description: "built-in tool selection" },
  "max-steps": { type: "string", valueHint: "N", description: "cap on model steps per prompt (default 50)" },
  ext: { type: "string", alias: "e", valueHint: "PATH", description: "load an extension for this run (repeatable)" },
  "no-ext": { type: "boolean", description: "skip extension discovery" },
  "no-sandbox": { type: "boolean", description: "run extensions that declare fs or network permissions without their OS sandbox" },
  "trust-project": { type: "boolean", description: "start this project's ./.zot/extensions for this run without a recorded trust (CI)" },
  "with-skills": { type: "boolean", description: "load user skills" },
  "no-skill": { type: "boolean", description: "disable skills entirely" },
  "no-context-files": { type: "boolean", description: "do not read AGENTS.md/CLAUDE.md into the system prompt" },
  "no-yolo": { type: "boolean", description: "confirm each tool call (interactive only)" },
  jail: { type: "boolean", description: "confine tools to --cwd" },
  "list-models": { type: "boolean", description: "list known models" },
  version: { type: "boolean", alias: "v", description: "print the version" },
  verbose: { type: "boolean", description: "with --version: also the commit, build date, target and runtime" },
  help: { type: "boolean", alias: "h", description: "show this help" },
} as const satisfies ArgsDef;

export type Mode = "interactive" | "print" | "json" | "rpc" | "acp";

export interface RootOptions {
  mode: Mode;
  /** rpc over WebSocket (--listen, --listen-any). */
  listen?: RpcListen;
  prompt?: string;
  provider?: string;
  model?: string;
  apiKey?: string;
  baseUrl?: string;
  systemPrompt?: string;
  appendSystemPrompt: string[];
  reasoning?: "low" | "medium" | "high";
  theme?: string;
  continue: boolean;
  /** `true` for -r without an id. */
  resume?: string | true;
  session?: string;
  noSession: boolean;
  cwd?: string;
  tools?: string[];
  maxSteps?: number;
  ext: string[];
  noExt: boolean;
  noSandbox: boolean;
  trustProject: boolean;
  withSkills: boolean;
  noSkill: boolean;
  noContextFiles: boolean;
  yolo: boolean;
  jail: boolean;
  listModels: boolean;
  version: boolean;
  verbose: boolean;
  help: boolean;
}

export { UsageError };

function sessionSelection(options: RootOptions): SessionSelection {
  if (options.noSession) return { kind: "none" };
  if (options.session) return { kind: "path", path: options.session };
  if (options.resume !== undefined) return { kind: "resume", id: options.resume === true ? undefined : options.resume };
  if (options.continue) return { kind: "continue" };
  return { kind: "new" };
}

/**
 * The run the flags describe (mode, prompt and the informational flags stay with the CLI), as
 * given: createRuntime fills in the defaults.
 */
export function toRunConfig(options: RootOptions): RunConfigInput {
  return {
    cwd: options.cwd,
    provider: options.provider,
    model: options.model,
    apiKey: options.apiKey,
    baseUrl: options.baseUrl,
    rememberModel: true,
    systemPrompt: options.systemPrompt,
    appendSystemPrompt: options.appendSystemPrompt,
    contextFiles: !options.noContextFiles,
    reasoning: options.reasoning,
    ...(options.theme !== undefined ? { theme: options.theme } : {}),
    session: sessionSelection(options),
    tools: options.tools,
    maxSteps: options.maxSteps,
    extensions: { paths: options.ext, discover: !options.noExt, sandbox: !options.noSandbox, trustProject: options.trustProject },
    skills: { enabled: !options.noSkill, user: options.withSkills },
    yolo: options.yolo,
    jail: options.jail,
  };
}

const REPEATABLE = new Map([["-e", "ext"], ["--ext", "ext"], ["--append-system-prompt", "append-system-prompt"]]);
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The values of the root flags in `argv` (already checked against ROOT_ARGS), read as citty
 * reads them: a string flag takes the next word whatever it is, `=false` turns a boolean off, the
 * last value wins, `--` ends flags; the positionals in `_`. Read here rather than by citty's
 * parser: that one loads node:util, which costs every start 3.5 ms in the compiled binary.
 */
function flagValues(argv: string[], known: ReadonlyMap<string, string>, present: Set<string>): Record<string, unknown> & { _: string[] } {
  const values: Record<string, unknown> & { _: string[] } = { _: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      values._.push(...argv.slice(i + 1));
      break;
    }
    const eq = arg.indexOf("=");
    const name = arg.startsWith("-") ? known.get(eq > 0 ? arg.slice(0, eq) : arg) : undefined;
    if (name === undefined || !present.has(name)) {
      values._.push(arg);
      continue;
    }
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    if (ROOT_ARGS[name as keyof typeof ROOT_ARGS].type === "boolean") values[name] = inline === undefined || inline === "true" ? true : inline === "false" ? false : inline;
    else values[name] = inline ?? (i + 1 < argv.length ? argv[++i] : true);
  }
  return values;
}

/** The flags the root command accepts (long names and aliases), each with the definition it belongs to. */
function knownFlags(): Map<string, string> {
  const known = new Map<string, string>();
  for (const [name, def] of Object.entries(ROOT_ARGS) as [string, { type: string; alias?: string }][]) {
    if (def.type === "positional") continue;
    known.set(`--${name}`, name);
    if (def.alias) known.set(`-${def.alias}`, name);
  }
  return known;
}

export function parseRootArgs(argv: string[]): RootOptions {
  const known = knownFlags();
  const repeated: Record<string, string[]> = { ext: [], "append-system-prompt": [] };
  const rest: string[] = [];
  const present = new Set<string>();
  let resume: string | true | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    const eq = arg.indexOf("=");
    const flag = arg.startsWith("-") && eq > 0 ? arg.slice(0, eq) : arg;
    const inline = arg.startsWith("-") && eq > 0 ? arg.slice(eq + 1) : undefined;
    const target = REPEATABLE.get(flag);
    if (target) {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`${flag} needs a value`);
      repeated[target]!.push(value);
      continue;
    }
    if (flag === "-r" || flag === "--resume") {
      const next = argv[i + 1];
      if (inline !== undefined) resume = inline;
      // The next word is an id when it looks like one (a prompt has spaces or punctuation);
      // `zot -r -- word` forces a one-word prompt.
      else if (next !== undefined && SESSION_ID.test(next)) resume = argv[++i]!;
      else resume = true;
      continue;
    }
    if (arg.startsWith("-") && arg !== "-") {
      const name = known.get(flag);
      if (name === undefined) throw new UsageError(`unknown flag ${flag} (see zot --help)`);
      present.add(name);
    }
    rest.push(arg);
  }

  const args = flagValues(rest, known, present);
  const str = (name: string): string | undefined => {
    const value = args[name];
    if (value === undefined || value === false) return undefined;
    if (value === true || value === "") throw new UsageError(`--${name} needs a value`);
    return String(value);
  };
  const bool = (name: string) => args[name] === true;

  let mode: Mode = "interactive";
  const modeFlag = str("mode");
  if (modeFlag !== undefined) {
    if (!(MODES as readonly string[]).includes(modeFlag)) throw new UsageError(`--mode must be interactive, print, json, rpc or acp, not "${modeFlag}"`);
    mode = modeFlag as Mode;
  }
  if (bool("json")) mode = "json";
  if (bool("print")) mode = "print";

  const positionals = args._.filter((a) => a !== "--");
  if ((positionals[0] === "rpc" || positionals[0] === "acp") && modeFlag === undefined) {
    mode = positionals[0];
    positionals.shift();
  }
  // One word that looks like a command is not sent to the model (mistyped.ts); after `--` it is.
  if (positionals.length === 1 && !argv.includes("--")) {
    const mistyped = mistypedCommandMessage(positionals[0]!);
    if (mistyped) throw new UsageError(mistyped);
  }

  const listen = listenTarget(str("listen"), bool("listen-any"), mode);

  const reasoning = str("reasoning");
  if (reasoning !== undefined && !(REASONING_LEVELS as readonly string[]).includes(reasoning)) {
    throw new UsageError(`--reasoning must be low, medium or high, not "${reasoning}"`);
  }
  const maxStepsText = str("max-steps");
  let maxSteps: number | undefined;
  if (maxStepsText !== undefined) {
    maxSteps = Number(maxStepsText);
    if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new UsageError(`--max-steps must be a positive whole number, not "${maxStepsText}"`);
  }
  const provider = str("provider");
  if (provider !== undefined && !isProviderName(provider)) {
    throw new UsageError(`--provider must be one of ${PROVIDER_NAMES.join(", ")}, not "${provider}"`);
  }
  const toolsText = str("tools");

  return {
    mode,
    ...(listen ? { listen } : {}),
    prompt: positionals.length > 0 ? positionals.join(" ") : undefined,
    provider,
    model: str("model"),
    apiKey: str("api-key"),
    baseUrl: str("base-url"),
    systemPrompt: str("system-prompt"),
    appendSystemPrompt: repeated["append-system-prompt"]!,
    reasoning: reasoning as RootOptions["reasoning"],
    theme: str("theme"),
    continue: bool("continue"),
    resume,
    session: str("session"),
    noSession: bool("no-session"),
    cwd: str("cwd"),
    tools: bool("no-tools") ? [] : toolsText?.split(",").map((t) => t.trim()).filter(Boolean),
    maxSteps,
    ext: repeated.ext!,
    noExt: bool("no-ext"),
    noSandbox: bool("no-sandbox"),
    trustProject: bool("trust-project"),
    withSkills: bool("with-skills"),
    noSkill: bool("no-skill"),
    noContextFiles: bool("no-context-files"),
    yolo: !bool("no-yolo"),
    jail: bool("jail"),
    listModels: bool("list-models"),
    version: bool("version"),
    verbose: bool("verbose"),
    help: bool("help"),
  };
}

/** --listen's address: ws:// on a loopback host unless --listen-any; only in rpc mode. */
function listenTarget(text: string | undefined, any: boolean, mode: Mode): RpcListen | undefined {
  if (text === undefined) {
    if (any) throw new UsageError("--listen-any goes with --listen ws://HOST:PORT");
    return undefined;
  }
  if (mode !== "rpc") throw new UsageError("--listen is for rpc mode: zot rpc --listen ws://127.0.0.1:PORT");
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--listen must be a URL like ws://127.0.0.1:PORT, not "${text}"`);
  }
  if (url.protocol !== "ws:") throw new UsageError(`--listen must be a ws:// URL, not "${text}"`);
  if (!any && !isLoopbackName(url.hostname)) {
    throw new UsageError(`--listen ${text}: only loopback (127.0.0.1, ::1, localhost) unless --listen-any, which needs ZOT_RPC_TOKEN`);
  }
  return { url, any };
}
