// RunConfig: everything that describes one run of zot, independent of the mode that shows it.
// The CLI maps argv to it; an embedder (mod.ts) or a subagent runner builds one directly. Every
// field has a default, so `resolveRunConfig({})` is a plain run in the current directory.
import type { SessionSelection } from "../agent/session/session-select.ts";
import type { ReasoningEffort } from "../providers/types.ts";

export interface RunConfig {
  /** Working directory of the agent and its tools (default: the process's). */
  cwd: string;
  /** A provider name (PROVIDER_NAMES); absent: ZOT_PROVIDER, then config.json's last choice, then anthropic. */
  provider?: string;
  /** Absent: ZOT_MODEL, then config.json's last choice for this provider, then its default. */
  model?: string;
  /** Absent: the provider's environment variable, then `$ZOT_HOME/auth.json`. */
  apiKey?: string;
  baseUrl?: string;
  /** Save an explicitly given provider/model in config.json as the last choice (the CLI does). */
  rememberModel: boolean;
  /** Replaces the built-in system prompt and SYSTEM.md. */
  systemPrompt?: string;
  /** Appended to the system prompt, in order. */
  appendSystemPrompt: string[];
  /** The output style for this run (a name `/output-style` lists); absent: config.json's `output_style`. */
  outputStyle?: string;
  /** Read AGENTS.md/CLAUDE.md files into the system prompt. */
  contextFiles: boolean;
  reasoning?: ReasoningEffort;
  /** The REPL's colour theme; absent: ZOT_THEME, then config.json's `theme`, then the terminal's background. */
  theme?: string;
  /** Which conversation: new, continue, resume, a file, or none (in memory only). */
  session: SessionSelection;
  /** Built-in tool selection; absent: all of them, `[]`: none. */
  tools?: string[];
  /** The extension and MCP tools the model is offered (a subagent's `tools`); absent: all of them. */
  extensionTools?: string[];
  /** Model steps per prompt (default 50). */
  maxSteps?: number;
  extensions: {
    /** Extension folders loaded first (they win over discovered ones by name). */
    paths: string[];
    /** Discover project and global extensions. */
    discover: boolean;
    /** Run extensions that declare fs or network permissions in an OS sandbox (false: --no-sandbox). */
    sandbox: boolean;
    /** Start the project's extensions this run even if the project is not trusted (--trust-project). */
    trustProject: boolean;
  };
  skills: {
    enabled: boolean;
    /** Also load the user's own skills. */
    user: boolean;
  };
  /** Run tool calls without asking (false asks the confirmer before each). */
  yolo: boolean;
  /** Confine the built-in file tools to `cwd`. */
  jail: boolean;
}

/** A RunConfig with any field left out; nested objects may be partial too. */
export type RunConfigInput = Partial<Omit<RunConfig, "extensions" | "skills">> & {
  extensions?: Partial<RunConfig["extensions"]>;
  skills?: Partial<RunConfig["skills"]>;
};

export function resolveRunConfig(input: RunConfigInput = {}): RunConfig {
  return {
    ...input,
    cwd: input.cwd ?? process.cwd(),
    rememberModel: input.rememberModel ?? false,
    appendSystemPrompt: input.appendSystemPrompt ?? [],
    contextFiles: input.contextFiles ?? true,
    session: input.session ?? { kind: "new" },
    extensions: { paths: [], discover: true, sandbox: true, trustProject: false, ...input.extensions },
    skills: { enabled: true, user: false, ...input.skills },
    yolo: input.yolo ?? true,
    jail: input.jail ?? false,
  };
}
