// Fans one event stream out to every consumer. Lifecycle events are stamped here with the
// session id, cwd and a sequence number that is monotonic for the bus's lifetime (the spec's
// "extension manager's lifetime": one bus per zot process).
import type { HostEvent, LifecycleEvent, StampedLifecycleEvent, ZotEvent } from "./events.ts";

export type EventListener = (event: ZotEvent) => void;

export class EventBus {
  private sequence = 0;
  private readonly listeners = new Set<EventListener>();

  constructor(public session: { id: string; cwd: string }) {}

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stamps and delivers a lifecycle event; returns the stamped object. */
  lifecycle(event: LifecycleEvent): StampedLifecycleEvent {
    const stamped = { ...event, session_id: this.session.id, cwd: this.session.cwd, sequence: ++this.sequence } as StampedLifecycleEvent;
    this.deliver(stamped);
    return stamped;
  }

  host(event: HostEvent): void {
    this.deliver(event);
  }

  private deliver(event: ZotEvent): void {
    // A throwing consumer must not break the others or the agent loop.
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        process.stderr.write(`zot: event consumer failed: ${(err as Error).message}\n`);
      }
    }
  }
}
