// The README every scaffold gets: what the files are, how to try the extension, and the
// template's own sections (how it talks to zot, how to run it by hand).
import type { TemplateContext } from "./types.ts";

export interface ReadmeParts {
  /** What the extension does, after "A zot extension written …". */
  intro: string;
  /** Markdown list items (without "- ") for the files besides extension.json and README.md. */
  files: string[];
  /** Extra lines for the "Try it" block (shell, with `#` comments). */
  tryIt?: string[];
  /** Sections after "Try it", each starting with "## ". */
  sections: string[];
}

export function renderReadme({ name, command }: TemplateContext, parts: ReadmeParts): string {
  return `# ${name}

${parts.intro}

- \`extension.json\`: the manifest zot reads (\`exec\` is the program it starts).
${parts.files.map((f) => `- ${f}`).join("\n")}

## Try it

\`\`\`sh
# load it for one session, then type /${command}
zot --ext <this folder>
${parts.tryIt ? `${parts.tryIt.join("\n")}\n` : ""}# check that it loads and what it registers
zot ext doctor
# what it wrote to stderr
zot ext logs ${name}
\`\`\`

${parts.sections.map((s) => s.trimEnd()).join("\n\n")}

${permissionsSection(name)}`;
}

/** Every scaffold's note on declared permissions (the manifest is generated without them). */
export const permissionsSection = (name: string): string => `## Permissions

Without a \`permissions\` object in \`extension.json\` the extension runs with your full access
(\`zot ext list\` shows "full access"). Declare what it needs and zot grants only that; a kind
left out grants nothing, \`"*"\` grants all of it:

\`\`\`json
"permissions": {
  "tools": ["read"],
  "events": ["tool_result"],
  "intercept": ["tool_call"],
  "ui": ["notes", "panels", "submit"],
  "fs": { "read": ["{project}"], "write": ["{extension}", "{temp}"] },
  "network": "none"
},
"on_failure": { "tool_call": "block" }
\`\`\`

- \`tools\`: tools it may run with \`call_tool\`; any other gets an \`is_error\` "not permitted" result.
- \`events\` / \`intercept\`: what its \`subscribe\` may observe / intercept; the rest is not delivered.
- \`ui\`: \`notes\` (notify, clear_notes), \`panels\` (open_panel, panel_render, panel_close),
  \`submit\`; other UI frames are ignored.
- \`fs\` (paths may start with \`{extension}\`, \`{project}\`, \`{temp}\`, \`{data}\` or \`~\`) and
  \`network\` (\`"none"\`, \`"all"\` or a list of hosts): the process runs in an OS sandbox.
- \`env\`: in the sandbox, variables named like credentials (\`…KEY\`, \`…TOKEN\`, \`…SECRET\`…)
  are removed from its environment unless listed here, e.g. \`"env": ["WEATHER_API_KEY"]\`.
- \`on_failure\`: \`"block"\` makes its interceptors fail closed (a timeout, crash or invalid
  answer refuses the action); the default, \`"allow"\`, lets it through.

Refusals are \`not permitted:\` lines in \`zot ext logs ${name}\`; \`zot ext doctor\` shows
what is requested and granted.
`;

/** For templates speaking the protocol by hand. */
export const RAW_PROTOCOL_SECTION = `## How it talks to zot

One JSON object per line on stdin and stdout:

1. the extension sends \`hello\` (its first line on stdout);
2. zot answers \`hello_ack\`; the extension sends \`register_command\` (and any
   \`register_tool\` / \`subscribe\`), then \`ready\`;
3. each \`command_invoked\` gets a \`command_response\` with the same \`id\`;
4. \`shutdown\` gets \`shutdown_ack\`, then the program exits.

Frames it does not handle are ignored. Keep stdout for protocol frames; log to stderr.
`;

/** For templates on an SDK (`sdk`, e.g. "`zot_ext`"): the SDK speaks the protocol; the rules that remain. */
export function sdkProtocolSection(sdk: string, { name }: TemplateContext): string {
  return `## How it talks to zot

${sdk} speaks the protocol (one JSON object per line on stdin and stdout): it sends
\`hello\`, registers the command and the tool after zot's \`hello_ack\`, says \`ready\`, turns
each \`command_invoked\` / \`tool_call\` into a call of your handler and its return value into
the reply, and answers \`shutdown\`. A handler that throws becomes an error reply; the
extension keeps running.

stdout carries protocol frames only: log with \`ext.log(...)\` (stderr, appended to
\`$ZOT_HOME/logs/ext-${name}.log\`).
`;
}
