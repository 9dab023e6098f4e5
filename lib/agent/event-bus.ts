// Fans one event stream out to every consumer. Lifecycle events are stamped here with the
// session id, cwd and a sequence number that is monotonic for the bus's lifetime (the spec's
// "extension manager's lifetime": one bus per zot process).
import type { HostEvent, LifecyclePayload, StampedLifecycleEvent, ZotEvent } from "../events/index.ts";
import { writeStderr } from "../std-output.ts";

/** How an event may travel: `extensions: false` keeps it out of extension `event` frames. */
export interface Delivery {
  extensions: boolean;
}

export type EventListener = (event: ZotEvent, delivery: Delivery) => void;

const EVERYWHERE: Delivery = { extensions: true };
const CLIENTS_ONLY: Delivery = { extensions: false };

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

  /**
   * Stamps and delivers a lifecycle event; returns the stamped object. `extensions: false` is
   * for an observation json/rpc clients and the REPL get but the extension protocol does not
   * define (a tool-only response's assistant_message, the closing turn_end of an aborted run).
   * `session` stamps another conversation's identity (a subagent task's parent conversation).
   */
  lifecycle(event: LifecyclePayload, options: Partial<Delivery> & { session?: SessionIdentity } = {}): StampedLifecycleEvent {
    // `session`: subagent events belong to the conversation that created the task, not the active one.
    const { id, cwd } = options.session ?? this.identity();
    const stamped = { ...event, session_id: id, cwd, sequence: ++this.sequence } as StampedLifecycleEvent;
    this.deliver(stamped, options.extensions === false ? CLIENTS_ONLY : EVERYWHERE);
    return stamped;
  }

  host(event: HostEvent): void {
    this.deliver(event, EVERYWHERE);
  }

  private deliver(event: ZotEvent, delivery: Delivery): void {
    // A throwing consumer must not break the others or the agent loop.
    for (const listener of this.listeners) {
      try {
        listener(event, delivery);
      } catch (err) {
        writeStderr(`zot: event consumer failed: ${(err as Error).message}\n`);
      }
    }
  }
}
