// Fans one event stream out to every consumer. Lifecycle events are stamped here with the
// session id, cwd and a sequence number that is monotonic for the bus's lifetime (the spec's
// "extension manager's lifetime": one bus per zot process).
import type { HostEvent, LifecyclePayload, StampedLifecycleEvent, ZotEvent } from "./events.ts";

export type EventListener = (event: ZotEvent) => void;

/** The conversation lifecycle events belong to. */
export interface SessionIdentity {
  id: string;
  cwd: string;
}

export class EventBus {
  private sequence = 0;
  private readonly listeners = new Set<EventListener>();
  private identity: () => SessionIdentity;

  /** `initial` stamps events until a session binds itself with `bindSession`. */
  constructor(initial: SessionIdentity) {
    this.identity = () => initial;
  }

  /**
   * Makes `source` the one owner of the identity stamped on lifecycle events: the session that
   * drives this bus (a session switch changes what it returns, nothing writes the bus).
   */
  bindSession(source: () => SessionIdentity): void {
    this.identity = source;
  }

  /** The identity lifecycle events are stamped with now. */
  get session(): SessionIdentity {
    return this.identity();
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stamps and delivers a lifecycle event; returns the stamped object. */
  lifecycle(event: LifecyclePayload): StampedLifecycleEvent {
    const { id, cwd } = this.identity();
    const stamped = { ...event, session_id: id, cwd, sequence: ++this.sequence } as StampedLifecycleEvent;
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
