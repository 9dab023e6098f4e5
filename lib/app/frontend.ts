// The contract between the runtime and the mode that shows it (REPL, print, json, rpc, a
// subagent child, `zot mcp serve`, an embedding program): everything the runtime asks of the
// person or program on the other side goes through one Frontend. Each mode implements it once.
import type { EventBus } from "../agent/event-bus.ts";
import type { Confirmer } from "../agent/loop/permissions.ts";
import type { PendingExtension } from "../extensions/catalog/trust/host-trust.ts";
import { writeStderr } from "../std-output.ts";

/** What json mode's first `session` line reports: the run as it starts. */
export interface SessionStartInfo {
  sessionId: string;
  cwd: string;
  provider: string;
  model: string;
}

export interface Frontend {
  /**
   * The session and its event bus exist: called once, before extensions start, so the
   * frontend sees their load errors. Every event of the run is on `bus` from here on.
   */
  showEvents(bus: EventBus, info: SessionStartInfo): void;
  /** A non-fatal warning for the user. */
  warn(message: string): void;
  /**
   * What the provider SDKs log (a deprecated model, for one), each distinct line once per run.
   * Absent: it is a warning. The REPL shows these as dim notes.
   */
  notice?(message: string): void;
  /**
   * Asked before a tool call the permission rules leave to the user (yolo off). Absent: nobody
   * can be asked, and calls run unconfirmed with a one-time warning.
   */
  confirm?: Confirmer;
  /**
   * Project extensions the user has not trusted (asked once per run, and again after a /cd
   * into another project); true trusts the project with them (recorded). Absent (headless):
   * they are skipped with a warning.
   */
  askTrust?(pending: PendingExtension[]): Promise<boolean>;
  /** An extension's `submit` frame: text for the input line (honoured in interactive runs only). */
  submit?(extension: string, text: string): void;
}

/** The warning line every mode without a screen of its own writes on stderr. */
export function stderrWarning(message: string): void {
  writeStderr(`zot: warning: ${message}\n`);
}

