// Skills compiled into zot. Kept as string constants so the single binary needs no files.
// The extension guide follows the extension protocol spec; keep the two in step.

export interface BuiltinSkill {
  name: string;
  description: string;
  body: string;
}

const WRITE_ZOT_EXTENSION = `# Writing a zot extension

A zot extension is a program in any language that speaks newline-delimited JSON with zot over
its stdin and stdout: one JSON object per line, UTF-8, at most 4 MiB per line, every object
with a \`type\`. stdout carries protocol frames only: flush after each frame and write logs to
stderr, which zot appends to \`$ZOT_HOME/logs/ext-<name>.log\`. Ignore frame types and fields
you do not know; new ones are added without a protocol version change.

## 1. Folder and manifest

An extension is a folder with an \`extension.json\`:

\`\`\`json
{"name": "weather", "version": "1.0.0", "exec": "./weather.py", "args": [],
 "language": "python", "description": "current weather for any city", "enabled": true}
\`\`\`

- \`name\` (required) must equal the \`name\` in your \`hello\` frame.
- \`exec\` (required for protocol extensions) is relative to the manifest folder; make the file
  executable with a shebang (\`chmod +x\`). \`args\` adds argv. \`enabled: false\` disables it.
- A bundle with only \`theme.json\`, or only a \`skills\` list (folders scanned for SKILL.md, or
  SKILL.md paths, relative to the manifest), may omit \`exec\` and is never spawned.
- zot looks in \`./.zot/extensions/<name>/\` (project, wins) and \`$ZOT_HOME/extensions/<name>/\`.
- The process runs in its own folder. The user's project directory is \`hello_ack.cwd\`; keep
  state in \`hello_ack.data_dir\`.
- \`zot ext new <name> --lang ts|js|python|sh\` scaffolds a working extension.
- Without \`permissions\` the extension has the user's full access. Declare what it needs and
  zot grants only that (a kind left out grants nothing; \`"*"\` grants all of it):

\`\`\`json
{"permissions": {"tools": ["read"], "events": ["tool_result"], "intercept": ["tool_call"],
  "ui": ["notes"], "fs": {"read": ["{project}"], "write": ["{extension}", "{temp}"]}, "network": "none"},
 "on_failure": {"tool_call": "block"}}
\`\`\`

  \`tools\`: what \`call_tool\` may run (others get an \`is_error\` "not permitted: …" result);
  \`events\` / \`intercept\`: what a \`subscribe\` may observe / intercept (others are not
  delivered / consulted); \`ui\`: \`panels\` (open_panel, panel_render, panel_close), \`submit\`,
  \`notes\` (notify, clear_notes), other UI frames are ignored; \`fs\` (paths may start with
  \`{extension}\`, \`{project}\`, \`{temp}\`, \`{data}\`, \`~\`) and \`network\` (\`"none"\`, \`"all"\` or
  hosts) say what its OS sandbox shows: any \`permissions\` block runs the process in one (no fs:
  only its own folder, read-only, and data_dir; no network: none), with an environment of PATH,
  HOME, locale and zot's variables plus what \`env\` lists. A tool_call rewrite needs the tool in
  \`tools\`, and must leave its own result unchanged when shown it again. Refusals are logged as
  \`not permitted:\` lines; \`zot ext doctor\` shows requested against granted, and the mounts.

## 2. Handshake and lifecycle

1. Your first stdout frame must be \`hello\` (print nothing before it):
   \`{"type":"hello","name":"weather","version":"1.0.0","capabilities":["commands","tools"]}\`
   Optional capabilities: \`"panels"\`, \`"call_tool"\`, \`"tool_cancel"\`.
2. zot answers \`hello_ack\` with \`protocol_version\` (1), \`zot_version\`, \`provider\`, \`model\`,
   \`cwd\`, \`extension_dir\`, \`data_dir\` (and \`capabilities\`).
3. Send your \`register_command\`, \`register_tool\` and \`subscribe\` frames, then
   \`{"type":"ready"}\`. An extension that never sends \`ready\` is auto-readied after a short wait.
4. On \`{"type":"shutdown"}\` reply \`{"type":"shutdown_ack"}\` and exit. Holdouts are sent
   SIGTERM after 2 s, then SIGKILL. Also exit when stdin closes.

A name already taken (by a built-in or an earlier extension) is shadowed, not an error: check
\`zot ext doctor\`.

## 3. Slash commands

\`{"type":"register_command","name":"weather","description":"current weather for a city"}\`
(names match case-insensitively). When the user types \`/weather berlin\` you receive
\`{"type":"command_invoked","id":"7","name":"weather","args":"berlin"}\` and reply with the same id:

\`{"type":"command_response","id":"7","action":"display","display":"Berlin: 16°C, fog"}\`

| action | payload field | effect |
|---|---|---|
| \`prompt\` | \`prompt\` | submitted as a user message; the agent runs a turn |
| \`tool_prompt\` | \`prompt\`, \`tool_name\`, \`tool_args\` | runs the tool, records call and result, then the turn |
| \`insert\` | \`insert\` | put into the editor without submitting |
| \`display\` | \`display\` | a note in the chat; not sent to the model |
| \`open_panel\` | \`open_panel\` | opens a panel (section 7) |
| \`noop\` | — | you handled it yourself |

A non-empty \`error\` field shows a red status line. At any time you may send
\`{"type":"notify","level":"info|success|warn|error","message":"…"}\`, \`{"type":"clear_notes"}\`
(removes your notes) and \`{"type":"submit","text":"…"}\` (a user prompt; interactive mode only).

## 4. Tools the model can call

\`\`\`json
{"type":"register_tool","name":"weather","description":"Get the current weather for a city.",
 "schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}
\`\`\`

Built-in tools (\`read\`, \`write\`, \`edit\`, \`bash\`, \`skill\`) win name conflicts. A call arrives as
\`{"type":"tool_call","id":"c1","name":"weather","args":{"city":"Berlin"}}\`; validate \`args\`
yourself and answer within 60 s (else the call is \`timed_out\`):

\`{"type":"tool_result","id":"c1","content":[{"type":"text","text":"Berlin: 16°C"}]}\`

Set \`"is_error":true\` for failures; content blocks may also be
\`{"type":"image","mime_type":"image/png","data":"<base64>"}\`.

- \`"deferred": true\` registers a tool the model does not see until some tool result lists it
  in \`"activate_tools":["weather"]\`.
- \`"interactive": true\` removes the reply deadline for tools that wait on the user (rejected in
  print, json and rpc modes).
- With the \`tool_cancel\` capability you receive \`{"type":"tool_cancel","id":"c1"}\` when a call is
  abandoned: stop the work and drop its state; ignore unknown ids.
- With the \`call_tool\` capability (and when \`hello_ack.capabilities\` lists it) you may call any
  active tool: \`{"type":"call_tool","id":"r1","name":"read","args":{"path":"README.md"}}\` →
  \`{"type":"tool_result","id":"r1",…}\` (256 KiB max, \`truncated:true\` when cut; 60 s timeout;
  cancel with \`{"type":"call_tool_cancel","id":"r1"}\`). Inside your own tool handler set
  \`"parent_id"\` to the host's \`tool_call\` id (chains hold at most 4 calls, no repeated names).

## 5. Events

Send once, before \`ready\`:
\`{"type":"subscribe","events":["session_start","tool_call","tool_result","turn_end"],"intercept":["tool_call"]}\`

Events: \`session_start\`, \`session_end\`, \`user_prompt_submit\`, \`turn_start\`, \`turn_end\`,
\`tool_call\`, \`tool_result\`, \`tool_confirmation_requested\`, \`permission_decision\`,
\`assistant_message\`, \`pre_compact\`, \`post_compact\`, \`subagent_start\`, \`subagent_stop\`. They
arrive one-way, e.g.
\`{"type":"event","event":"tool_call","session_id":"…","cwd":"…","sequence":12,"tool_id":"…","tool_name":"bash","tool_args":{"command":"ls"}}\`.
Keep handlers fast (slow ones delay later interception requests); delivery is best-effort.

## 6. Interception

Interceptable: \`tool_call\`, \`turn_start\`, \`assistant_message\`, \`before_agent_start\`. zot sends
\`{"type":"event_intercept","id":"i1","event":"tool_call","tool_id":"…","tool_name":"bash","tool_args":{"command":"rm -rf /"}}\`
and waits up to 5 s for \`{"type":"event_intercept_response","id":"i1", …}\` (no answer = allow):

- \`"block":true,"reason":"…"\` refuses (the model sees the reason for tool calls);
- \`"modified_args":{…}\` rewrites a tool call's arguments;
- \`"replace_text":"…"\` rewrites the visible text of an \`assistant_message\`;
- \`"system_prompt":"…"\` replaces the whole system prompt for \`before_agent_start\`.

An empty response allows unchanged. Interceptors run one after another: the first block wins,
rewrites chain. A guard that must not fail open sets \`"on_failure": "block"\` (or per event,
\`{"tool_call": "block"}\`) in its manifest: then its timeout, crash or invalid answer refuses
the action ("refused: guard <name> did not answer"); the user can override it in
\`$ZOT_HOME/config.json\` (\`{"extensions": {"<name>": {"on_failure": …}}}\`).

## 7. Panels

Advertise \`"panels"\`. Open one from a command response:
\`{"type":"command_response","id":"7","action":"open_panel","open_panel":{"id":"todos-main","title":"Todos","lines":["□ ship it"],"footer":"↑/↓ move · esc close"}}\`.
While it is focused you receive \`{"type":"panel_key","panel_id":"todos-main","key":"down"}\` (keys:
up, down, left, right, enter, esc, tab, pageup, pagedown, home, end, backspace, delete, and
\`rune\` with the character in \`text\`). Redraw with \`{"type":"panel_render","panel_id":…,"title":…,"lines":[…],"footer":…}\`,
close with \`{"type":"panel_close","panel_id":…}\`. zot sends \`panel_close\` when the user closes it.

## 8. A complete extension (Python, no SDK)

\`\`\`python
#!/usr/bin/env python3
import json, sys

def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\\n")
    sys.stdout.flush()

emit({"type": "hello", "name": "hello-py", "version": "1.0.0", "capabilities": ["commands"]})
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello_ack":
        emit({"type": "register_command", "name": "hellopy", "description": "say hi"})
        emit({"type": "ready"})
    elif msg["type"] == "command_invoked":
        emit({"type": "command_response", "id": msg["id"], "action": "display", "display": "hi!"})
    elif msg["type"] == "shutdown":
        emit({"type": "shutdown_ack"})
        break
\`\`\`

## 9. Try it and debug it

- \`zot --ext ./my-ext\` (\`-e\`, repeatable) loads a working copy for one run, shadowing an
  installed copy of the same name. \`/reload-ext\` restarts extensions in the REPL.
- \`zot ext doctor -e ./my-ext\` runs the real startup path and reports manifest errors, spawn
  and handshake failures (with exit status), ready or auto-ready, registered commands and tools,
  conflicts, warnings and the log path.
- \`zot ext logs <name> -f\` follows the extension's stderr.
- \`zot ext install ./my-ext\` copies it into \`$ZOT_HOME/extensions/\` (\`--project\` for
  \`./.zot/extensions/\`); \`zot ext list\` shows what is installed.

Common mistakes: printing anything but frames on stdout, not flushing, a manifest name that
differs from the \`hello\` name, replying with a different \`id\`, and registering after \`ready\`.
`;

export const BUILTIN_SKILLS: readonly BuiltinSkill[] = [
  {
    name: "write-zot-extension",
    description:
      "How to write, run and debug a zot extension (a subprocess speaking newline-delimited JSON): " +
      "manifest, handshake, slash commands, tools, events, interception, panels, zot --ext and zot ext doctor.",
    body: WRITE_ZOT_EXTENSION,
  },
];
