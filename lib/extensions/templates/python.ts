// Python extension speaking the raw protocol, standard library only.
import type { ExtensionTemplate, TemplateContext } from "./types.ts";

function source({ name, command }: TemplateContext): string {
  return `#!/usr/bin/env python3
"""${name}: a zot extension speaking the protocol directly (standard library only).

One JSON object per line on stdin/stdout. Write logs to stderr (zot appends them to
$ZOT_HOME/logs/ext-${name}.log); stdout carries protocol frames only.
"""
import json
import sys

NAME = ${JSON.stringify(name)}
COMMAND = ${JSON.stringify(command)}


def send(frame):
    sys.stdout.write(json.dumps(frame) + "\\n")
    sys.stdout.flush()


def handle(msg):
    """Answers one frame; returns False once the extension should exit."""
    kind = msg.get("type")
    if kind == "hello_ack":
        # Register everything, then say ready: zot builds its registries after "ready".
        send({"type": "register_command", "name": COMMAND, "description": "say hello from " + NAME})
        send({"type": "ready"})
    elif kind == "command_invoked":
        args = msg.get("args") if isinstance(msg.get("args"), str) else ""
        text = "Hello from " + NAME + "!" + (" You said: " + args if args else "")
        send({"type": "command_response", "id": msg.get("id"), "action": "display", "display": text})
    elif kind == "shutdown":
        send({"type": "shutdown_ack"})
        return False
    # Frames this extension does not handle are ignored, as the protocol requires.
    return True


def main():
    # The first frame on stdout must be hello.
    send({"type": "hello", "name": NAME, "version": "0.1.0", "capabilities": ["commands"]})
    # readline on the byte stream splits on "\\n" only; JSON strings may hold other separators.
    for raw in iter(sys.stdin.buffer.readline, b""):
        if not raw.strip():
            continue
        try:
            msg = json.loads(raw)
        except ValueError:
            print(NAME + ": ignoring a line that is not JSON", file=sys.stderr)
            continue
        if isinstance(msg, dict) and not handle(msg):
            return


if __name__ == "__main__":
    main()
`;
}

export const pythonTemplate: ExtensionTemplate = {
  language: "python",
  summary: "Python 3, raw protocol, standard library only",
  entry: "main.py",
  source,
  runHint: "It needs Python 3 (`python3` on PATH); `main.py` is run directly through its shebang.",
};
