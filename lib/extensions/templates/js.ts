// Plain Node extension speaking the raw protocol (no SDK import), as an ES module.
import { RAW_PROTOCOL_SECTION, renderReadme } from "./readme.ts";
import type { ExtensionTemplate, TemplateContext } from "./types.ts";

function source({ name, command }: TemplateContext): string {
  return `#!/usr/bin/env node
// ${name}: a zot extension speaking the protocol directly: one JSON object per line on
// stdin/stdout. Write logs to stderr (zot appends them to $ZOT_HOME/logs/ext-${name}.log);
// stdout carries protocol frames only.
const NAME = ${JSON.stringify(name)};
const COMMAND = ${JSON.stringify(command)};

function send(frame) {
  process.stdout.write(JSON.stringify(frame) + "\\n");
}

function handle(msg) {
  switch (msg.type) {
    case "hello_ack":
      // Register everything, then say ready: zot builds its registries after "ready".
      send({ type: "register_command", name: COMMAND, description: \`say hello from \${NAME}\` });
      send({ type: "ready" });
      break;
    case "command_invoked": {
      const args = typeof msg.args === "string" ? msg.args : "";
      send({
        type: "command_response",
        id: msg.id,
        action: "display",
        display: \`Hello from \${NAME}!\` + (args ? \` You said: \${args}\` : ""),
      });
      break;
    }
    case "shutdown":
      send({ type: "shutdown_ack" });
      process.stdin.destroy(); // nothing left to read: the process exits once stdout drains
      break;
    default:
      // Frames this extension does not handle are ignored, as the protocol requires.
      break;
  }
}

// Split on "\\n" only: JSON strings may legally contain other Unicode line separators.
let buffered = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffered += chunk;
  let newline;
  while ((newline = buffered.indexOf("\\n")) >= 0) {
    const line = buffered.slice(0, newline).replace(/\\r$/, "");
    buffered = buffered.slice(newline + 1);
    if (!line.trim()) continue;
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      console.error(\`\${NAME}: ignoring a line that is not JSON\`);
      continue;
    }
    if (msg && typeof msg === "object") handle(msg);
  }
});

// The first frame on stdout must be hello.
send({ type: "hello", name: NAME, version: "0.1.0", capabilities: ["commands"] });
`;
}

export const jsTemplate: ExtensionTemplate = {
  language: "javascript",
  summary: "plain Node.js, raw protocol, no dependencies",
  entry: "main.mjs",
  source,
  description: ({ command }) => `says hello (/${command})`,
  readme: (ctx) => renderReadme(ctx, {
    intro: `A zot extension written in Node.js, speaking the protocol directly. It registers one slash
command, \`/${ctx.command}\`, which answers with a short note.`,
    files: ["`main.mjs`: the program. It needs Node.js (`node` on PATH); `main.mjs` is run directly through its shebang."],
    sections: [RAW_PROTOCOL_SECTION],
  }),
};
