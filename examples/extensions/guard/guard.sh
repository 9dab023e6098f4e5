#!/bin/sh
# guard: refuses dangerous bash commands before they run. A zot extension in POSIX sh that
# speaks the raw protocol (one JSON frame per line on stdin/stdout), with awk, not jq, for JSON.
#
# It intercepts tool_call: a bash call whose command matches a pattern in danger.awk is
# blocked, and the model is told why; every other call is allowed unchanged. /guard lists the
# patterns. stdout carries frames only; anything for a human goes to stderr, which zot appends
# to $ZOT_HOME/logs/ext-guard.log.

here=$(cd "$(dirname "$0")" && pwd)
# Bytes, not characters: the JSON reader and the patterns behave the same in every locale.
LC_ALL=C
export LC_ALL

send() { printf '%s\n' "$1"; }
log() { printf 'guard: %s\n' "$1" >&2; }

# get PATH: the string at PATH in $frame, unescaped (status 1 when absent, 2 when malformed).
get() { printf '%s\n' "$frame" | awk -v path="$1" -f "$here/json.awk"; }
# raw PATH: the JSON text of the value at PATH in $frame, to echo an id back as it came.
raw() { printf '%s\n' "$frame" | awk -v path="$1" -v raw=1 -f "$here/json.awk"; }
# quote TEXT: TEXT as a JSON string literal.
quote() { printf '%s' "$1" | awk -v quote=1 -f "$here/json.awk"; }

# decide: answers the event_intercept in $frame. Only bash tool calls are inspected.
decide() {
  id=$(raw id) || { log "event_intercept without an id ignored"; return; }
  event=$(get event)
  tool=$(get tool_name)
  if [ "$event" = tool_call ] && [ "$tool" = bash ] && command=$(get tool_args.command); then
    if pattern=$(printf '%s' "$command" | awk -f "$here/danger.awk"); then
      log "blocked: $command"
      reason="refused by the guard extension: the command matches the danger pattern \"$pattern\"."
      reason="$reason Do not retry it; if it is really needed, ask the user to run it themselves."
      send "{\"type\":\"event_intercept_response\",\"id\":$id,\"block\":true,\"reason\":$(quote "$reason")}"
      return
    fi
  fi
  send "{\"type\":\"event_intercept_response\",\"id\":$id}"
}

# show_patterns: answers /guard with the active patterns.
show_patterns() {
  id=$(raw id) || return
  text="guard refuses bash commands matching:
$(awk -v list=1 -f "$here/danger.awk" </dev/null | sed 's/^/  /')"
  send "{\"type\":\"command_response\",\"id\":$id,\"action\":\"display\",\"display\":$(quote "$text")}"
}

send '{"type":"hello","name":"guard","version":"1.0.0","capabilities":["commands","events"]}'

# `|| [ -n "$frame" ]` keeps a last frame that arrives without its newline.
while IFS= read -r frame || [ -n "$frame" ]; do
  case $(get type) in
    hello_ack)
      send '{"type":"register_command","name":"guard","description":"list the bash commands the guard refuses"}'
      send '{"type":"subscribe","intercept":["tool_call"]}'
      send '{"type":"ready"}'
      ;;
    event_intercept) decide ;;
    command_invoked) show_patterns ;;
    shutdown)
      send '{"type":"shutdown_ack"}'
      exit 0
      ;;
    '') log "ignored a frame that is not a JSON object with a string type" ;;
  esac
done
