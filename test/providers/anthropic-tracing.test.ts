// The Anthropic SDK's OpenTelemetry spans: zot turns them off when no tracer provider is registered
// in its process (they would record nothing), so an application that embeds zot and registers one
// must still see each request as a span.
import { INVALID_SPAN_CONTEXT, trace, type Tracer, type TracerProvider } from "@opentelemetry/api";
import { afterEach, beforeEach, expect, test } from "vitest";
import { createProvider } from "../../lib/providers/index.ts";
import { startModelServer, type ModelServer } from "../support/model-server.ts";
import { collect } from "./helpers.ts";

let server: ModelServer;
beforeEach(async () => { server = await startModelServer(); });
afterEach(async () => {
  trace.disable();
  await server.close();
});

const anthropic = () => createProvider({ provider: "anthropic", baseUrl: server.url, apiKey: "test", retry: { maxRetries: 0 } });

/** A tracer provider that keeps the names of the spans started through it (spans that record nothing). */
function recordingProvider(started: string[]): TracerProvider {
  const tracer = {
    startSpan(name: string) {
      started.push(name);
      return trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
    },
  } as unknown as Tracer;
  return { getTracer: () => tracer };
}

test("a tracer provider the embedding application registered sees each request as a span", async () => {
  const started: string[] = [];
  expect(trace.setGlobalTracerProvider(recordingProvider(started))).toBe(true);
  server.push({ text: "traced" });
  const result = await collect(anthropic(), { model: "claude-haiku-4-5" });
  expect(result.text).toBe("traced");
  expect(started.length).toBe(1);
});
