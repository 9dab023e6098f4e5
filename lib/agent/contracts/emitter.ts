// Where the loop and the session send events: lifecycle events (to extensions and clients) and
// host-only events. The session's SessionEmitter implements it over the event bus.
import type { Delivery } from "../event-bus.ts";
import type { HostEvent, LifecyclePayload } from "../../events/index.ts";

export interface Emitter {
  lifecycle(event: LifecyclePayload, options?: Partial<Delivery>): void;
  host(event: HostEvent): void;
}
