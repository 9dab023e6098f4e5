// The agent's event types under their older import path: re-exported from the one event
// vocabulary (lib/events), where each event is defined once. New code imports lib/events.
export type { RunStatus } from "../events/index.ts";
