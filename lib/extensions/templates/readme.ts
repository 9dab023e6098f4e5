// The README every scaffold gets: what the files are and how to try the extension.
import type { ExtensionTemplate, TemplateContext } from "./types.ts";

export function readme(template: ExtensionTemplate, { name, command }: TemplateContext): string {
  return `# ${name}

A zot extension. It registers one slash command, \`/${command}\`, which answers with a short note.

- \`extension.json\`: the manifest zot reads (\`exec\` is the program it starts).
- \`${template.entry}\`: the program. ${template.runHint}

## Try it

\`\`\`sh
# load it for one session, then type /${command}
zot --ext <this folder>
# check that it loads and what it registers
zot ext doctor
# what it wrote to stderr
zot ext logs ${name}
\`\`\`

## How it talks to zot

One JSON object per line on stdin and stdout:

1. the extension sends \`hello\` (its first line on stdout);
2. zot answers \`hello_ack\`; the extension sends \`register_command\` (and any
   \`register_tool\` / \`subscribe\`), then \`ready\`;
3. each \`command_invoked\` gets a \`command_response\` with the same \`id\`;
4. \`shutdown\` gets \`shutdown_ack\`, then the program exits.

Frames it does not handle are ignored. Keep stdout for protocol frames; log to stderr.
`;
}
