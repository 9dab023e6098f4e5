// Built-in slash commands (host.md "Interactive mode"); they win over extension commands.
export interface BuiltinCommand {
  name: string;
  description: string;
  /** Only meaningful in the interactive REPL. */
  interactiveOnly?: boolean;
}

export const BUILTIN_COMMANDS: BuiltinCommand[] = [
  { name: "help", description: "list commands" },
  { name: "model", description: "switch the model: /model [id] (no id: pick one; lists them outside the REPL)" },
  { name: "clear", description: "start the conversation over" },
  { name: "new", description: "end this conversation and start a fresh one" },
  { name: "resume", description: "switch to a saved conversation: /resume [id] (no id: pick one; lists them outside the REPL)" },
  { name: "fork", description: "branch this conversation at one of its prompts: /fork [N] (no N: pick one; lists them outside the REPL)" },
  { name: "rewind", description: "back to before a prompt: files and conversation, /rewind N [files|conversation] (no N: pick one)" },
  { name: "tree", description: "this conversation's branches; pick one to switch to it (prints them outside the REPL)" },
  { name: "export", description: "write this conversation to a portable file: /export [PATH] (default ./ID.zotsession)" },
  { name: "import", description: "add an exported conversation to this project: /import PATH (then /resume ID)" },
  { name: "cd", description: "change the working directory: /cd PATH (a fresh conversation there)" },
  { name: "compact", description: "summarize older messages to free context" },
  { name: "init", description: "have the model write (or improve) this project's AGENTS.md: /init [what to stress]" },
  { name: "btw", description: "ask aside: /btw QUESTION (answered from the conversation, not added to it; no tools)" },
  { name: "reload-ext", description: "restart every extension and re-read manifests" },
  { name: "ext", description: "list loaded extensions and their state" },
  { name: "tools", description: "list the tools the model can call: /tools [name] (a name: its description and schema)" },
  { name: "agents", description: "list subagents: /agents [show|stop|resume ID [prompt]]" },
  { name: "yolo", description: "run tool calls without confirmation: /yolo [on|off]" },
  { name: "jail", description: "confine tools to the working directory" },
  { name: "unjail", description: "lift the working-directory confinement" },
  { name: "login", description: "check an API key with the provider and save it: /login [provider]", interactiveOnly: true },
  { name: "logout", description: "remove a saved API key: /logout [provider] (default: the current one)" },
  { name: "output-style", description: "how the model answers: /output-style [name|default] (no name: list them)" },
  { name: "theme", description: "the REPL's colours: /theme [name] (no name: pick one)", interactiveOnly: true },
  { name: "exit", description: "leave zot", interactiveOnly: true },
];
