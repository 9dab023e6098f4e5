// The extensions of the start-up benchmark: alternately the spec's Python quick-start and a plain
// Node script, each registering one command and one tool (so a run can prove every extension
// loaded: the tools reach the model request). Interpreters are given by absolute path.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const PYTHON_SOURCE = `import json, sys

NAME = sys.argv[1]

def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\\n")
    sys.stdout.flush()

emit({"type": "hello", "name": NAME, "version": "1.0.0", "capabilities": ["commands", "tools"]})

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello_ack":
        emit({"type": "register_command", "name": NAME, "description": "say hi (python)"})
        emit({"type": "register_tool", "name": NAME.replace("-", "_"), "description": "bench", "schema": {"type": "object"}})
        emit({"type": "ready"})
    elif msg["type"] == "command_invoked":
        emit({"type": "command_response", "id": msg["id"], "action": "prompt", "prompt": "Greet me briefly."})
    elif msg["type"] == "shutdown":
        emit({"type": "shutdown_ack"})
        break
`;

const NODE_SOURCE = `import { createInterface } from "node:readline";

const name = process.argv[2];
const send = (frame) => process.stdout.write(JSON.stringify(frame) + "\\n");
send({ type: "hello", name, version: "1.0.0", capabilities: ["commands", "tools"] });
createInterface({ input: process.stdin }).on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "hello_ack") {
    send({ type: "register_command", name, description: "say hi (node)" });
    send({ type: "register_tool", name: name.replaceAll("-", "_"), description: "bench", schema: { type: "object" } });
    send({ type: "ready" });
  } else if (msg.type === "command_invoked") {
    send({ type: "command_response", id: msg.id, action: "prompt", prompt: "Greet me briefly." });
  } else if (msg.type === "shutdown") {
    send({ type: "shutdown_ack" });
    process.exit(0);
  }
});
`;

/** The tool name extension `i` registers. */
export function benchToolName(i: number): string {
  return `bench_ext_${i}`;
}

/** Writes `count` extension folders under `parent` and returns their paths. */
export function writeExtensions(parent: string, count: number, interpreters: { python: string; node: string }): string[] {
  const dirs: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = `bench-ext-${i}`;
    const dir = join(parent, name);
    mkdirSync(dir, { recursive: true });
    const python = i % 2 === 0;
    const script = python ? "hello.py" : "hello.mjs";
    writeFileSync(join(dir, script), python ? PYTHON_SOURCE : NODE_SOURCE);
    writeFileSync(join(dir, "extension.json"), JSON.stringify({
      name, version: "1.0.0", exec: python ? interpreters.python : interpreters.node, args: [script, name],
      language: python ? "python" : "javascript",
    }));
    dirs.push(dir);
  }
  return dirs;
}
