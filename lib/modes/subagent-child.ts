// `zot --swarm-child` (internal, not in --help): json mode for one subagent task. The parent
// supervisor writes the task spec as the first line of stdin and reads the NDJSON on stdout;
// nobody else does. It loads extensions as every mode does. When stdin closes (the parent
// cancelled, or died) the run is aborted and the child shuts down and exits.
import { createRuntime, type Runtime } from "../app/runtime.ts";
import { decodeSpec, type SubagentChildSpec } from "../app/subagents/child-spec.ts";
import { SUBAGENT_ID_VAR, SUBAGENT_TYPE_VAR } from "../process/escapees.ts";
import { eventStream, streamingFrontend } from "./event-stream.ts";
import { EXIT_FAILURE, EXIT_INTERRUPTED, exitCodeOf } from "./exit-code.ts";
import { stoppingOutput } from "./mode-output.ts";
import { ndjsonSink } from "./ndjson.ts";

/** Reads the first line of `stdin`; `closed` resolves when stdin ends after it. */
function readSpecLine(stdin: NodeJS.ReadableStream): { spec: Promise<string>; closed: Promise<void> } {
  let buffer = "";
  let gotLine: (line: string) => void;
  const spec = new Promise<string>((resolve) => (gotLine = resolve));
  const closed = new Promise<void>((resolve) => {
    stdin.on("end", resolve);
    stdin.on("close", resolve);
    stdin.on("error", () => resolve());
  });
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    const nl = buffer.indexOf("\n");
    if (nl < 0) return;
    gotLine(buffer.slice(0, nl));
    buffer = "";
  };
  stdin.on("data", onData);
  void closed.then(() => gotLine(buffer));
  return { spec, closed };
}

export async function runSubagentChild(env: Record<string, string | undefined> = process.env): Promise<number> {
  const err = (text: string) => process.stderr.write(`${text}\n`);
  const input = readSpecLine(process.stdin);
  const decoded = decodeSpec(await input.spec);
  if (decoded instanceof Error) {
    err(`zot: ${decoded.message}`);
    return EXIT_FAILURE;
  }
  const spec: SubagentChildSpec = decoded;
  env[SUBAGENT_ID_VAR] = spec.agentId;
  if (spec.agentType) env[SUBAGENT_TYPE_VAR] = spec.agentType;
  // The parent stopped reading: stop the task, as when it closes stdin.
  const output = stoppingOutput(process.stdout, err, "the task was stopped");
  const sink = ndjsonSink(output);
  const stream = eventStream(sink);
  let rt: Runtime;
  try {
    rt = await createRuntime(spec.config, {
      frontend: streamingFrontend(sink, stream, err),
      env,
      interactive: false,
      subagents: { depth: spec.depth, maxDepth: spec.maxDepth },
      warmProvider: true,
    });
  } catch (error) {
    err(`zot: ${(error as Error).message}`);
    return EXIT_FAILURE;
  }
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    rt.abort();
  };
  void input.closed.then(interrupt);
  output.stopWith(interrupt);
  process.on("SIGTERM", interrupt);
  process.on("SIGINT", interrupt);
  try {
    const result = await rt.prompt(spec.prompt);
    await rt.close({ abort: interrupted });
    return interrupted ? EXIT_INTERRUPTED : exitCodeOf(result);
  } finally {
    process.off("SIGTERM", interrupt);
    process.off("SIGINT", interrupt);
  }
}
