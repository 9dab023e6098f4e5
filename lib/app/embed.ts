// The embedding API (exported by mod.ts): zot as a library in another program. One call builds
// a run from a RunConfig, the same way the CLI does, and hands back a small handle: prompt,
// events, abort, close. Everything else stays reachable through `runtime`.
import type { ZotEvent } from "../events/index.ts";
import type { RunResult } from "../agent/contracts/loop-options.ts";
import type { Confirmer } from "../agent/loop/permissions.ts";
import type { ImageBlock } from "../providers/types.ts";
import type { RunConfigInput } from "./run-config.ts";
import { stderrWarning, type Frontend } from "./frontend.ts";
import { createRuntime, type Runtime } from "./runtime.ts";

export interface EmbedOptions {
  /**
   * Where API keys, ZOT_HOME and ZOT_PROVIDER/ZOT_MODEL are read (default process.env).
   * Extensions are spawned with the process's own environment.
   */
  env?: Record<string, string | undefined>;
  /** Every event of the run, from before the extensions start (their load errors included). */
  onEvent?(event: ZotEvent): void;
  /** Non-fatal warnings (default: stderr). */
  onWarning?(message: string): void;
  /** Asked before each tool call when the config has `yolo: false`. */
  confirmer?: Confirmer;
}

export interface Zot {
  readonly sessionId: string;
  /** Runs one prompt (queued behind a running one); resolves when its run ends. */
  prompt(text: string, options?: { images?: ImageBlock[] }): Promise<RunResult>;
  /** Adds an event listener; returns the function that removes it. */
  subscribe(listener: (event: ZotEvent) => void): () => void;
  /** Cancels the running prompt and withdraws queued ones. */
  abort(): void;
  /** Waits for running work (or aborts it), ends the session and stops every extension. */
  close(options?: { abort?: boolean }): Promise<void>;
  /** The session, extension host and settings behind this handle. */
  readonly runtime: Runtime;
}

export async function createZot(config: RunConfigInput = {}, options: EmbedOptions = {}): Promise<Zot> {
  const runtime = await createRuntime(config, {
    frontend: embedderFrontend(options),
    env: options.env,
    interactive: false,
    // A child agent is zot started again from its own entry, which a host program is not: no agent tool.
    subagents: { maxDepth: 0 },
  });
  const { session, bus } = runtime;
  return {
    get sessionId() {
      return session.sessionId;
    },
    prompt: (text, promptOptions) => runtime.prompt(text, promptOptions),
    subscribe: (listener) => bus.subscribe(listener),
    abort: () => void runtime.abort(),
    close: (closeOptions) => runtime.close(closeOptions),
    runtime,
  };
}

/** The embedder's callbacks as the runtime's frontend: events, warnings (default: stderr), confirmations. */
function embedderFrontend(options: EmbedOptions): Frontend {
  const { onEvent, onWarning, confirmer } = options;
  return {
    showEvents: (bus) => {
      if (onEvent) bus.subscribe(onEvent);
    },
    warn: onWarning ?? stderrWarning,
    ...(confirmer ? { confirm: confirmer } : {}),
  };
}
