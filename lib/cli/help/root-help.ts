// `zot --help`: the root flags (declared once, in root-args.ts), then the commands, a few
// examples and the environment variables zot reads.
import { API_KEY_ENVS } from "../../providers/index.ts";
import { ZOT_VERSION } from "../../version.ts";
import { ROOT_COMMANDS } from "../commands.ts";
import { ROOT_ARGS } from "../root-args.ts";
import type { HelpSpec } from "./render.ts";

const EXAMPLES: Array<[string, string]> = [
  ["zot", "start the interactive REPL in this folder"],
  ['zot -p "explain this repo"', "print mode: only the final answer on stdout"],
  ['git diff | zot -p "review this"', "piped stdin is attached to the prompt"],
  ['zot --mode json "fix the test"', "one JSON event per line"],
  ["zot -c", "continue the latest session here"],
  ["zot --provider openai --base-url http://localhost:11434/v1 --model qwen3", "a local OpenAI-compatible server"],
  ["zot ext install gh:owner/repo", "install an extension"],
  ["zot -- version", "send a word that looks like a command as a prompt"],
];

function environment(): Array<[string, string]> {
  const keys = Object.entries(API_KEY_ENVS).map(([provider, names]): [string, string] =>
    [names.join(", "), `API key for --provider ${provider} (after --api-key; before $ZOT_HOME/auth.json)`]);
  return [
    ...keys,
    ["ZOT_PROVIDER, ZOT_MODEL, ZOT_BASE_URL", "defaults for --provider, --model and --base-url"],
    ["ZOT_OPENAI_API", "--provider openai's wire: responses, chat, or auto (Responses for OpenAI's reasoning and codex models)"],
    ["ZOT_HOME", "where zot keeps config, keys, sessions, extensions and logs (default $XDG_STATE_HOME/zot, "
      + "else ~/.local/state/zot; ~/Library/Application Support/zot on macOS)"],
    ["ZOT_RPC_TOKEN", "rpc mode: the token the first command, hello, must carry (ZOTCORE_RPC_TOKEN also works)"],
    ["ZOT_EXTENSION_TIMEOUTS", "the extension host's deadlines in ms, e.g. hello=15000,intercept=10000"],
    ["ZOT_TOOL_OUTPUT_MAX_BYTES", "how much of an extension's or MCP server's tool result the model gets (default 51200)"],
    ["ZOT_AGENT_TIMEOUT_MS, ZOT_AGENT_MAX_PARALLEL, ZOT_AGENT_MAX_DEPTH", "subagent limits"],
    ["ZOT_RELOAD_STATUS_MS", "how long the REPL shows /reload-ext's status"],
    ["GIGET_AUTH, GIGET_GITHUB_URL, GIGET_GITLAB_URL", "a token, and other servers, for gh: and gitlab: installs"],
    ["NO_COLOR, FORCE_COLOR", "no colours; colours even when stdout is not a terminal"],
    ["ZOT_THEME", "the REPL's theme when --theme is not given (dark, light)"],
    ["ZOT_BACKGROUND_QUERY_MS", "how long the REPL waits for the terminal to say its background colour (default 100; 0: do not ask)"],
    ["COLORTERM, TERM, COLORFGBG", "the colour depth (truecolor, 256, 16) and the background the default theme follows"],
    ["FORCE_HYPERLINK", "1 or 0: links as OSC 8 hyperlinks or as text"],
    ["COLUMNS", "the width --help is laid out for (default: the terminal's, else 80)"],
  ];
}

export function rootHelpSpec(): HelpSpec {
  return {
    name: "zot",
    description: `zot ${ZOT_VERSION}: a coding agent with an extension system.`,
    usage: ["zot [OPTIONS] [PROMPT]", "zot <COMMAND> [ARGS…]"],
    args: ROOT_ARGS,
    sections: [
      { title: "COMMANDS", rows: ROOT_COMMANDS.map((c) => [c.name, c.summary]) },
      { title: "EXAMPLES", rows: EXAMPLES },
      { title: "ENVIRONMENT", rows: environment() },
    ],
    footer: "A one-word prompt that looks like a mistyped command is refused rather than sent; "
      + "`zot -- WORD` sends it. `zot <COMMAND> --help` shows a command's options.",
  };
}
