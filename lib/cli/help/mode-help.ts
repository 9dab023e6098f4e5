// `zot rpc --help` and `zot acp --help`: what the mode does, the flags it reads, an example, and
// where its reference is; `zot acp --help` also names the protocol version zot speaks.
import type { HelpSpec } from "./render.ts";

const RUN_FLAGS: Array<[string, string]> = [
  ["--provider, --model, --api-key, --base-url", "the model, as for any run (else ZOT_PROVIDER, ZOT_MODEL, config.json)"],
  ["--ext PATH, --no-ext, --no-sandbox, --trust-project", "extensions, as for any run"],
  ["--no-yolo", "ask before each tool call (rpc: a confirm_request; acp: the editor's permission question)"],
  ["--cwd PATH", "the working directory (acp: the editor's session/new cwd wins)"],
];

export async function modeHelpSpec(mode: "rpc" | "acp"): Promise<HelpSpec> {
  if (mode === "rpc") {
    return {
      name: "zot rpc",
      description: "Drive zot from another program: JSON commands on stdin (prompt, abort, set_model, new_session, …), "
        + "one JSON event or response per line on stdout. Same as --mode rpc; compatible with the Go zot's clients.",
      usage: ["zot rpc [OPTIONS]", "zot rpc --listen ws://127.0.0.1:PORT [OPTIONS]"],
      sections: [{ title: "OPTIONS", rows: [
        ["--listen URL", "serve over WebSocket instead of stdio: loopback only, each client must give the token "
          + "(ZOT_RPC_TOKEN, or one printed on stderr at start); port 0 picks a free port"],
        ["--listen-any", "with --listen: any host and Origin (needs ZOT_RPC_TOKEN)"],
        ...RUN_FLAGS,
      ] }, { title: "EXAMPLE", rows: [["", `printf '%s\\n' '{"type":"prompt","message":"hi"}' | zot rpc`]] }],
      footer: "Commands, events and responses: docs/usage.md (rpc mode), in the repository.",
    };
  }
  const { PROTOCOL_VERSION } = await import("@agentclientprotocol/sdk");
  return {
    name: "zot acp",
    description: `Serve one editor over the Agent Client Protocol (version ${PROTOCOL_VERSION}) on stdio: Zed, JetBrains IDEs, `
      + "Neovim and Emacs drive zot with its extensions, plugins, MCP servers, sessions and permissions. The editor starts it; "
      + "stdout carries only protocol messages, logs go to $ZOT_HOME/logs.",
    usage: ["zot acp [OPTIONS]"],
    sections: [{ title: "OPTIONS", rows: RUN_FLAGS }, { title: "ZED (settings.json)", rows: [
      ["", `"agent_servers": {"zot": {"type": "custom", "command": "zot", "args": ["acp"]}}`],
    ] }, { title: "WHAT ZOT OFFERS", rows: [
      ["sessions", "new, load (replayed), list; modes ask, accept-edits, yolo; the model as a config option"],
      ["prompts", "text, images, resource links and embedded resources; slash commands of zot, extensions and plugins"],
      ["the editor's", "files (fs/read_text_file, fs/write_text_file) and terminal (bash runs there) when offered; MCP servers from session/new"],
    ] }],
    footer: "Every editor's setup: docs/acp.md, in the repository.",
  };
}
