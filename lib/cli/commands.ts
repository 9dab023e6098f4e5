// The words `zot <command>` understands, for `zot --help`'s COMMANDS, shell completion and the
// check that stops a mistyped command from being sent to the model as a prompt. main.ts routes
// them; this table only names and describes them.

export interface RootCommand {
  name: string;
  summary: string;
}

/** In the order `zot --help` lists them. */
export const ROOT_COMMANDS: readonly RootCommand[] = [
  { name: "ext", summary: "manage extensions: install, update, list, doctor… (zot ext --help)" },
  { name: "mcp", summary: "add, list and remove MCP servers; serve zot's tools over MCP" },
  { name: "agents", summary: "this project's subagents; prune their worktrees" },
  { name: "sessions", summary: "this project's conversations: list, show, rm, tree, export, import" },
  { name: "login", summary: "save an API key for a provider (checked first)" },
  { name: "logout", summary: "remove a saved API key" },
  { name: "completion", summary: "print a shell completion script: zot completion bash|zsh|fish" },
  { name: "upgrade", summary: "replace this binary with the latest release" },
  { name: "rpc", summary: "same as --mode rpc" },
  { name: "acp", summary: "serve an editor over the Agent Client Protocol (Zed, JetBrains, Neovim, Emacs); same as --mode acp" },
];
