// `zot --mode rpc`: a long-lived NDJSON command/event server for one cwd and one session.
// Commands arrive on stdin and are handled one at a time, in arrival order, so each reply
// reflects the commands before it; only the work of `prompt` and `compact` continues in the
// background, on the session's queue. Each command gets one `response` line; events stream as in
// json mode. With ZOT_RPC_TOKEN (or ZOTCORE_RPC_TOKEN, the Go zot's name) set, nothing starts
// until a `hello` with that token arrives. Over WebSocket (--listen) a token is always required:
// zot makes one up and prints it when none is set.
import { printable } from "../../terminal-text.ts";
import { createRuntime, type Runtime } from "../../app/runtime.ts";
import type { RunConfigInput } from "../../app/run-config.ts";
import { LineDecoder } from "../../protocol/codec.ts";
import { eventStream, failedDone, streamingFrontend } from "../event-stream.ts";
import { UsageError } from "../../errors.ts";
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK } from "../exit-code.ts";
import { modeOutput, outputClosedMessage } from "../mode-output.ts";
import { appendHostLog } from "../../host-log.ts";
import { zotPaths } from "../../paths.ts";
import { ndjsonSink } from "../ndjson.ts";
import { endsWithDone, parseRpcCommand, type RpcCommand } from "./rpc-commands.ts";
import { handleRpcCommand, type RpcContext } from "./rpc-handlers.ts";
import type { RpcListen } from "./rpc-listen.ts";
import type { WsTransport } from "./rpc-websocket.ts";
import { newAccessToken, sameSecret } from "../../protocol/socket-access.ts";

type Id = string | number | undefined;

const STOP_SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

export async function runRpc(config: RunConfigInput, env: Record<string, string | undefined>,
  stdin: NodeJS.ReadableStream = process.stdin, listen?: RpcListen): Promise<number> {
  // --listen-any opens the agent to the network: only behind a token, refused before listening.
  if (listen?.any && rpcToken(env) === undefined) throw new UsageError("--listen-any needs ZOT_RPC_TOKEN (or ZOTCORE_RPC_TOKEN) set: clients must say hello with it");
  const err = (text: string) => process.stderr.write(`${printable(text)}\n`);
  let fatal: number | undefined;
  let endLoop = () => {};
  let rt: Runtime | undefined;
  const runs = new Set<Promise<unknown>>();
  // The client stopped reading: nothing it asked for can reach it, so end as at EOF. One that
  // leaves with nothing in flight has simply finished (the Go zot's clients close their end and
  // exit on done): exit 0, nothing said. With work in flight that work is stopped, exit 1, and
  // only zot's log says why: the client's terminal is not zot's to write to.
  const output = modeOutput(process.stdout, (reason) => {
    const readerLeft = (reason as NodeJS.ErrnoException | undefined)?.code === "EPIPE";
    const busy = runs.size > 0 || rt?.session.running === true;
    if (busy) {
      fatal = EXIT_FAILURE;
      rt?.abort({ keepQueued: false });
    } else fatal ??= readerLeft ? EXIT_OK : EXIT_FAILURE;
    const line = `${outputClosedMessage(reason)}; rpc mode ends${busy ? ", and the work in flight was stopped" : ""}`;
    if (readerLeft) appendHostLog(rt?.paths ?? zotPaths(env), `rpc: ${line}`);
    else err(`zot: ${line}`);
    endLoop();
  });
  // SIGINT, SIGTERM, SIGHUP: stop what runs and what waits, then end as at EOF (extensions get
  // session_end and shutdown), exiting 130.
  const onSignal = () => {
    fatal ??= EXIT_INTERRUPTED;
    rt?.abort({ keepQueued: false });
    endLoop();
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  try {
    return await serve();
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  }

  async function serve(): Promise<number> {
    // Over WebSocket, lines go to the connected client instead of stdout (which stays empty).
    let ws: WsTransport | undefined;
    const sink = ndjsonSink(listen ? { write: (text: string) => ws?.write(text) } : output);
    const stream = eventStream(sink);
    const respond = (id: Id, command: string | undefined, outcome: { data: unknown } | { error: string }) =>
      sink.write({ type: "response", ...(id !== undefined ? { id } : {}), command: command ?? null,
        success: "data" in outcome, ...outcome });

    const chosen = rpcToken(env);
    const token = chosen ?? (listen ? newAccessToken() : undefined);
    let starting: Promise<Runtime> | undefined;
    const start = () =>
      (starting ??= createRuntime(config, {
        frontend: streamingFrontend(sink, stream, err),
        env,
        interactive: false,
      }).then((runtime) => {
        rt = runtime;
        runtime.session.start();
        return runtime;
      }));

    let authed = token === undefined;
    const handle = async (command: RpcCommand) => {
      if (!authed) {
        if (command.type !== "hello" || command.token === undefined || !sameSecret(command.token, token!)) {
          const error = command.type !== "hello" ? "hello with the rpc token (ZOT_RPC_TOKEN or ZOTCORE_RPC_TOKEN) is required first"
            : command.token === undefined ? "hello needs the token" : "wrong token";
          respond(command.id, command.type, { error });
          // Over WebSocket only this client is refused; zot waits for the next one.
          if (ws) ws.drop(error);
          else fatal = EXIT_FAILURE;
          return;
        }
        authed = true;
      }
      const runtime = await start();
      const ctx: RpcContext = {
        rt: runtime,
        sink,
        stream,
        track: (run) => {
          runs.add(run);
          run.catch(() => {}).finally(() => runs.delete(run));
        },
      };
      let reply: Awaited<ReturnType<typeof handleRpcCommand>>;
      try {
        reply = await handleRpcCommand(ctx, command);
      } catch (e) {
        const message = (e as Error).message;
        respond(command.id, command.type, { error: message });
        // A prompt, command or compaction always ends with one `done`, also when it never started.
        if (endsWithDone(command.type)) stream.done(failedDone(message));
        return;
      }
      respond(command.id, command.type, { data: reply.data });
      // What the reply acknowledged starts now, so its events follow the response line.
      reply.after?.();
    };

    if (authed) {
      try {
        await start();
      } catch (e) {
        err(`zot: ${(e as Error).message}`);
        return EXIT_FAILURE;
      }
    }

    // One command at a time, in arrival order.
    let queue = Promise.resolve();
    const processLine = (line: string): Promise<void> => {
      if (fatal !== undefined) return Promise.resolve();
      const parsed = parseRpcCommand(line);
      if (!parsed.ok) {
        respond(parsed.id, parsed.command, { error: parsed.error });
        if (!authed) {
          if (ws) ws.drop(parsed.error);
          else fatal = EXIT_FAILURE;
        } else if (parsed.command !== undefined && endsWithDone(parsed.command)) stream.done(failedDone(parsed.error));
        return Promise.resolve();
      }
      return handle(parsed.command).catch((e: Error) => {
        err(`zot: ${e.message}`);
        fatal = EXIT_FAILURE;
      });
    };
    await new Promise<void>((resolveEnd) => {
      endLoop = resolveEnd;
      if (fatal !== undefined) resolveEnd();
      const enqueue = (work: () => Promise<void>) => {
        queue = queue.then(work).then(() => {
          if (fatal !== undefined) resolveEnd();
        });
      };
      if (listen) {
        // Each client must say hello anew; work in flight when one leaves is stopped, and so are
        // its commands still waiting in the queue (nobody is left to read their replies).
        let client = 0;
        const fromClient = (work: () => Promise<void>) => {
          const sender = client;
          enqueue(() => (sender === client ? work() : Promise.resolve()));
        };
        void import("./rpc-websocket.ts").then(({ listenWebSocket }) => listenWebSocket(listen, { value: token!, generated: chosen === undefined }, {
          line: (line) => fromClient(() => processLine(line)),
          refuse: (error) => fromClient(async () => respond(undefined, undefined, { error })),
          connected: (upgradeAuthed) => enqueue(async () => {
            authed = upgradeAuthed;
          }),
          left: () => {
            client++;
            rt?.abort({ keepQueued: false });
            // Again behind the command being handled now: a prompt it starts has no reader either.
            enqueue(async () => {
              rt?.abort({ keepQueued: false });
            });
          },
        }, err)).then((transport) => {
          ws = transport;
        }, (e: Error) => {
          err(`zot: cannot listen on ${listen.url.href}: ${e.message}`);
          fatal = EXIT_FAILURE;
          resolveEnd();
        });
        return;
      }
      const decoder = new LineDecoder({
        onLine: (line) => enqueue(() => processLine(line)),
        onOversize: (bytes) => enqueue(async () => respond(undefined, undefined, { error: `command line of ${bytes} bytes exceeds the limit` })),
      });
      stdin.on("data", (chunk: Buffer) => decoder.push(chunk));
      stdin.on("end", () => {
        decoder.end();
        enqueue(async () => resolveEnd());
      });
      stdin.on("error", () => resolveEnd());
    });

    // EOF: finish queued commands and in-flight work, shut extensions down, exit 0.
    await ws?.close();
    await queue;
    await Promise.all(runs);
    if (rt) await rt.close({ abort: fatal !== undefined });
    return fatal ?? EXIT_OK;
  }
}

/**
 * The token `hello` must carry: ZOT_RPC_TOKEN, or ZOTCORE_RPC_TOKEN as clients of the Go zot set
 * it (empty counts as unset). Two different tokens are refused: zot cannot tell which is meant.
 */
export function rpcToken(env: Record<string, string | undefined>): string | undefined {
  const zot = env.ZOT_RPC_TOKEN || undefined;
  const zotcore = env.ZOTCORE_RPC_TOKEN || undefined;
  if (zot !== undefined && zotcore !== undefined && zot !== zotcore) {
    throw new UsageError("ZOT_RPC_TOKEN and ZOTCORE_RPC_TOKEN are both set and differ; set one of them, or both to the same token");
  }
  return zot ?? zotcore;
}
