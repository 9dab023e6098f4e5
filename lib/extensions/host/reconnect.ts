// Reconnecting WebSocket extensions: a dropped or refused connection is tried again after a
// delay that doubles from `timeouts.reconnect` up to `timeouts.reconnectMax`, each try a fresh
// record (clean registrations, a new handshake). A connection that reaches `ready` starts the
// count again; `limits.reconnectAttempts` failed tries in a row, and zot gives up, saying so,
// until /reload-ext (which starts a new set at once).
import type { LoadedExtension } from "../runtime/extension.ts";
import type { HostLimits, HostTimeouts } from "../runtime/settings.ts";

export interface ReconnectOptions {
  timeouts: HostTimeouts;
  limits: HostLimits;
  /** Replaces `ext` with a fresh record and starts it; undefined when it is no longer in the set. */
  restart(ext: LoadedExtension): Promise<LoadedExtension | undefined>;
  giveUp(ext: LoadedExtension, message: string): void;
}

export class Reconnects {
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  /** Failed tries in a row, by extension name. */
  private readonly tries = new Map<string, number>();

  constructor(private readonly options: ReconnectOptions) {}

  /** Tries `ext` again later when its driver lost a connection it may regain. */
  schedule(ext: LoadedExtension): void {
    if (!ext.driver.reconnectable || ext.stopping) return;
    const { timeouts, limits } = this.options;
    const tries = this.tries.get(ext.name) ?? 0;
    if (tries >= limits.reconnectAttempts) {
      if (tries > 0) this.options.giveUp(ext, `gave up reconnecting after ${tries} attempts; /reload-ext tries again`);
      this.tries.delete(ext.name);
      return;
    }
    this.tries.set(ext.name, tries + 1);
    const delay = Math.min(timeouts.reconnect * 2 ** tries, timeouts.reconnectMax);
    ext.log(`reconnecting in ${delay} ms (attempt ${tries + 1} of ${limits.reconnectAttempts})`);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.options.restart(ext).then((next) => {
        if (!next) return;
        if (next.phase === "ready") this.tries.delete(ext.name);
        else this.schedule(next);
      });
    }, delay);
    this.timers.add(timer);
  }

  /** The set is stopping: no try is made any more. */
  cancel(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.tries.clear();
  }
}
