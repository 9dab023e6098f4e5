// The agent's view of the event bus, owning the session boundary events: `session_start` is
// emitted by `start()` (interactive and rpc modes call it when they initialise) or, at the
// latest, right before the agent's first observation (headless modes); `session_end` at most
// once per activation.
import type { Emitter } from "../contracts/emitter.ts";
import type { Delivery, EventBus } from "../event-bus.ts";
import type { HostEvent, LifecyclePayload } from "../../events/index.ts";

type Phase = "idle" | "active" | "ended";

export class SessionEmitter implements Emitter {
  private phase: Phase = "idle";

  constructor(readonly bus: EventBus) {}

  get active(): boolean {
    return this.phase === "active";
  }

  /** Emits `session_start` unless this activation already did. */
  start(): void {
    if (this.phase === "active") return;
    this.phase = "active";
    this.bus.lifecycle({ type: "session_start" });
  }

  /** Emits `session_end` once, and only for a started activation. */
  end(reason: "shutdown" | "session_switch" | "cwd_change"): void {
    if (this.phase !== "active") return;
    this.phase = "ended";
    this.bus.lifecycle({ type: "session_end", reason });
  }

  /** Begins a new activation (after a session switch): the next observation starts it. */
  rearm(): void {
    this.phase = "idle";
  }

  lifecycle(event: LifecyclePayload, options?: Partial<Delivery>): void {
    if (this.phase === "idle") this.start();
    this.bus.lifecycle(event, options);
  }

  host(event: HostEvent): void {
    if (this.phase === "idle") this.start();
    this.bus.host(event);
  }
}
