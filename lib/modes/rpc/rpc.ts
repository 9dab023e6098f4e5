// `zot --mode rpc`: a long-lived NDJSON command/event server for one cwd and one session.
// Commands arrive on stdin; each gets one `response` line; events stream as in json mode.
// With ZOT_RPC_TOKEN set, nothing starts until a `hello` with that token arrives.
import { createRuntime, type Runtime } from "../../app/runtime.ts";
import type { RunConfig } from "../../app/run-config.ts";
import { LineDecoder } from "../../protocol/codec.ts";
import { EXIT_FAILURE, EXIT_OK } from "../exit-code.ts";
import { ndjsonSink, sessionLine } from "../ndjson.ts";
import { parseRpcCommand, type RpcCommand } from "./rpc-commands.ts";
import { handleRpcCommand, type RpcContext } from "./rpc-handlers.ts";

type Id = string | number | undefined;

export async function runRpc(config: RunConfig, env: Record<string, string | undefined>,
  stdin: NodeJS.ReadableStream = process.stdin): Promise<number> {
  const sink = ndjsonSink();
  const err = (text: string) => process.stderr.write(`${text}\n`);
  const respond = (id: Id, command: string | undefined, outcome: { data: unknown } | { error: string }) =>
    sink.write({ type: "response", ...(id !== undefined ? { id } : {}), command: command ?? null,
      success: "data" in outcome, ...outcome });

  const token = env.ZOT_RPC_TOKEN;
  const runs = new Set<Promise<unknown>>();
  let rt: Runtime | undefined;
  let starting: Promise<Runtime> | undefined;
  const start = () =>
    (starting ??= createRuntime(config, {
      env,
      interactive: false,
      warn: (m) => err(`zot: warning: ${m}`),
      onBus(bus, info) {
        sink.write(sessionLine(info));
        bus.subscribe((event) => sink.write(event));
      },
    }).then((runtime) => {
      rt = runtime;
      runtime.session.start();
      return runtime;
    }));

  let fatal: number | undefined;
  let authed = token === undefined;
  const handle = async (command: RpcCommand) => {
    if (!authed) {
      if (command.type !== "hello" || command.token !== token) {
        respond(command.id, command.type, { error: command.type === "hello" ? "wrong token" : "hello with the ZOT_RPC_TOKEN token is required first" });
        fatal = EXIT_FAILURE;
        return;
      }
      authed = true;
    }
    const runtime = await start();
    const ctx: RpcContext = {
      rt: runtime,
      sink,
      track: (run) => {
        runs.add(run);
        run.catch(() => {}).finally(() => runs.delete(run));
      },
    };
    try {
      respond(command.id, command.type, { data: await handleRpcCommand(ctx, command) });
    } catch (e) {
      respond(command.id, command.type, { error: (e as Error).message });
    }
  };

  if (authed) {
    try {
      await start();
    } catch (e) {
      err(`zot: ${(e as Error).message}`);
      return EXIT_FAILURE;
    }
  }

  const inFlight = new Set<Promise<void>>();
  await new Promise<void>((resolveEnd) => {
    const decoder = new LineDecoder({
      onLine(line) {
        if (fatal !== undefined) return;
        const parsed = parseRpcCommand(line);
        if (!parsed.ok) {
          respond(parsed.id, parsed.command, { error: parsed.error });
          if (!authed) fatal = EXIT_FAILURE;
          if (fatal !== undefined) resolveEnd();
          return;
        }
        const job = handle(parsed.command).catch((e: Error) => {
          err(`zot: ${e.message}`);
          fatal = EXIT_FAILURE;
        }).then(() => {
          if (fatal !== undefined) resolveEnd();
        });
        inFlight.add(job);
        void job.finally(() => inFlight.delete(job));
      },
      onOversize: (bytes) => respond(undefined, undefined, { error: `command line of ${bytes} bytes exceeds the limit` }),
    });
    stdin.on("data", (chunk: Buffer) => decoder.push(chunk));
    stdin.on("end", () => {
      decoder.end();
      resolveEnd();
    });
    stdin.on("error", () => resolveEnd());
  });

  // EOF: finish in-flight work, shut extensions down, exit 0.
  await Promise.all(inFlight);
  await Promise.all(runs);
  if (rt) await rt.close({ abort: fatal !== undefined });
  return fatal ?? EXIT_OK;
}
