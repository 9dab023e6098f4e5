// `zot ext doctor` without an agent: the real startup path (discovery, spawn, handshake,
// registration), one probe request per intercepted event (answer and latency), then the
// reports, then a graceful shutdown. Nothing is changed on disk.
import { EventBus } from "../../agent/event-bus.ts";
import type { ZotPaths } from "../../paths.ts";
import { ExtensionHost } from "./host.ts";
import type { ExtensionReport } from "./report.ts";
import type { HostTimeouts } from "../runtime/settings.ts";
import { recordedTrust } from "../catalog/trust/host-trust.ts";
import type { DriverFactories } from "../runtime/extension.ts";

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
  /** How each kind of extension is driven, as in a real run. */
  drivers: DriverFactories;
}

/** host.md's `zot ext doctor --json` object. */
export interface DoctorResult {
  /** false when any extension failed to load, or a fail-closed guard of config.json is not running. */
  ok: boolean;
  extensions: ExtensionReport[];
  /** Fail-closed guards of config.json that are not running: what they guard is refused. */
  absent_guards: Array<{ name: string; events: string[]; reason: string }>;
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
    drivers: options.drivers,
  });
  try {
    await host.startupComplete(); // a slow MCP server's result counts too
    await host.probeInterceptors();
    const extensions = host.reports();
    const absent = host.absentGuards().map((g) => ({ name: g.name, events: [...g.events], reason: g.why }));
    return { ok: !extensions.some((e) => e.status === "error") && absent.length === 0, extensions, absent_guards: absent };
  } finally {
    await host.shutdown();
  }
}
