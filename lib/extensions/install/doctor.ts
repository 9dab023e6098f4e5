// `zot ext doctor` without an agent: the real startup path (discovery, spawn, handshake,
// registration), one probe request per intercepted event (answer and latency), then the
// reports, then a graceful shutdown. Nothing is changed on disk.
import { EventBus } from "../../agent/event-bus.ts";
import type { ZotPaths } from "../../paths.ts";
import { ExtensionHost } from "../host/host.ts";
import type { ExtensionReport } from "../host/report.ts";
import type { HostTimeouts } from "../host/settings.ts";
import { recordedTrust } from "../trust/host-trust.ts";

export interface DoctorOptions {
  cwd: string;
  paths: ZotPaths;
  explicit?: string[];
  discover?: boolean;
  /** Sent in hello_ack, as a real run would (extensions may register by model). */
  provider: string;
  model: string;
  /** The built-in slash commands a real run has: they shadow extension commands of the same name. */
  builtinCommands: string[];
  timeouts?: Partial<HostTimeouts>;
}

/** host.md's `zot ext doctor --json` object. */
export interface DoctorResult {
  /** false when any extension failed to load. */
  ok: boolean;
  extensions: ExtensionReport[];
}

export async function diagnoseExtensions(options: DoctorOptions): Promise<DoctorResult> {
  const bus = new EventBus({ id: "doctor", cwd: options.cwd });
  const host = await ExtensionHost.start({
    cwd: options.cwd,
    paths: options.paths,
    explicit: options.explicit,
    discover: options.discover,
    agent: { bus, info: () => ({ provider: options.provider, model: options.model }) },
    // The interactive REPL is the default startup; diagnose what it would load.
    interactive: true,
    builtinCommands: options.builtinCommands,
    timeouts: options.timeouts,
    // What a real run would hold back is held back here too (and shown as needing approval).
    trust: recordedTrust(options.paths, {}),
  });
  try {
    await host.probeInterceptors();
    const extensions = host.reports();
    return { ok: !extensions.some((e) => e.status === "error"), extensions };
  } finally {
    await host.shutdown();
  }
}
