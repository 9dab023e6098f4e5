// POSIX sh extension (no jq): it only answers the frames it handles, pulling "type" and "id"
// out of each line with awk, which is enough for a fixed set of simple frames.
import { RAW_PROTOCOL_SECTION, renderReadme } from "./readme.ts";
import type { ExtensionTemplate, TemplateContext } from "./types.ts";

function source({ name, command }: TemplateContext): string {
  return `#!/bin/sh
# ${name}: a zot extension in POSIX sh. One JSON object per line on stdin/stdout; write logs
# to stderr (zot appends them to $ZOT_HOME/logs/ext-${name}.log), never to stdout.
# There is no JSON parser here: field() pulls one string value out of a line, which is enough
# for the frames handled below. Reach for jq or another language when you need more.
NAME='${name}'
COMMAND='${command}'

send() {
  printf '%s\\n' "$1"
}

# field KEY LINE: prints the first string value of "KEY" in LINE, still JSON-escaped (so it can
# be written back into a frame as is). Prints nothing when the key has no string value.
field() {
  printf '%s\\n' "$2" | awk -v key="\\"$1\\"" '{
    i = index($0, key)
    if (i == 0) exit
    rest = substr($0, i + length(key))
    if (!match(rest, /^[ \\t]*:[ \\t]*"/)) exit
    rest = substr(rest, RLENGTH + 1)
    out = ""
    n = length(rest)
    for (j = 1; j <= n; j++) {
      c = substr(rest, j, 1)
      if (c == "\\\\") { out = out c substr(rest, j + 1, 1); j++; continue }
      if (c == "\\"") break
      out = out c
    }
    print out
    exit
  }'
}

# The first frame on stdout must be hello.
send '{"type":"hello","name":"'"$NAME"'","version":"0.1.0","capabilities":["commands"]}'

while IFS= read -r line || [ -n "$line" ]; do
  case "$(field type "$line")" in
    hello_ack)
      # Register everything, then say ready: zot builds its registries after "ready".
      send '{"type":"register_command","name":"'"$COMMAND"'","description":"say hello from '"$NAME"'"}'
      send '{"type":"ready"}'
      ;;
    command_invoked)
      id=$(field id "$line")
      send '{"type":"command_response","id":"'"$id"'","action":"display","display":"Hello from '"$NAME"'!"}'
      ;;
    shutdown)
      send '{"type":"shutdown_ack"}'
      exit 0
      ;;
    *)
      # Frames this extension does not handle are ignored, as the protocol requires.
      ;;
  esac
done
`;
}

export const shTemplate: ExtensionTemplate = {
  language: "sh",
  summary: "POSIX sh and awk, raw protocol, no jq",
  entry: "main.sh",
  source,
  description: ({ command }) => `says hello (/${command})`,
  readme: (ctx) => renderReadme(ctx, {
    intro: `A zot extension written in POSIX sh, speaking the protocol directly. It registers one slash
command, \`/${ctx.command}\`, which answers with a short note.`,
    files: ["`main.sh`: the program. It needs a POSIX `sh` and `awk`; `main.sh` is run directly through its shebang."],
    sections: [RAW_PROTOCOL_SECTION],
  }),
};
