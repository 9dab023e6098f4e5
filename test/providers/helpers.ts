// Shared test helpers: run a provider stream to its end and pick out what matters.
import type { AssistantMessage, ModelStreamEvent, Provider, StreamRequest } from "../../lib/providers/types.ts";

export interface Collected {
  events: ModelStreamEvent[];
  done: AssistantMessage;
  text: string;
  thinking: string;
  retries: Extract<ModelStreamEvent, { type: "retry" }>[];
}

/** Drains `provider.stream(request)`; asserts the contract of exactly one final `done`. */
export async function collect(provider: Provider, request: Partial<StreamRequest> = {}): Promise<Collected> {
  const events: ModelStreamEvent[] = [];
  for await (const event of provider.stream(baseRequest(request))) events.push(event);
  const dones = events.filter((e) => e.type === "done");
  if (dones.length !== 1 || events[events.length - 1]?.type !== "done") {
    throw new Error(`expected exactly one final done event, got ${JSON.stringify(events.map((e) => e.type))}`);
  }
  return {
    events,
    done: (dones[0] as Extract<ModelStreamEvent, { type: "done" }>).message,
    text: events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : [])).join(""),
    thinking: events.flatMap((e) => (e.type === "thinking_delta" ? [e.delta] : [])).join(""),
    retries: events.filter((e): e is Extract<ModelStreamEvent, { type: "retry" }> => e.type === "retry"),
  };
}

export function baseRequest(request: Partial<StreamRequest> = {}): StreamRequest {
  return {
    model: "test-model",
    system: "You are a test.",
    messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
    tools: [],
    ...request,
  };
}

/** Retry settings that keep tests fast. */
export const FAST_RETRY = { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 50 };

/** A 1×1 transparent PNG. */
export const PNG_1PX = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
