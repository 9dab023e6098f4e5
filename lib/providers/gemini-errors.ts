// Gemini failures as `Failure`s. The SDK's ApiError carries the status and the body as JSON text
// (`{"error": {"code", "message", "status"}}`) but not the response headers, so the provider
// records a failed response's headers itself (`GeminiHttpFailure`) for `retry-after`.
import { ApiError } from "@google/genai/web";
import { isJsonObject } from "../protocol/json-object.ts";
import { describeFailure, IncompleteStreamError, parseRetryAfter, type Failure } from "./errors.ts";

/** An HTTP error answer, with the headers the SDK dropped. */
export class GeminiHttpFailure extends Error {
  constructor(readonly status: number, readonly body: string, readonly headers: Headers | undefined) {
    super(body);
    this.name = "GeminiHttpFailure";
  }
}

/** Errors that are not the SDK's (sockets, our own incomplete-stream check) go through the shared classifier. */
class NeverThrown extends Error {}
const NOT_SDK_ERRORS = { APIError: NeverThrown, APIConnectionError: NeverThrown, APIUserAbortError: NeverThrown };

export function describeGeminiFailure(err: unknown, now = Date.now()): Failure {
  if (err instanceof GeminiHttpFailure) return httpFailure(err.status, err.body, err.headers, now);
  if (err instanceof ApiError) {
    // An error chunk inside a stream that had started: its status is the chunk's code.
    return httpFailure(err.status, err.message, undefined, now);
  }
  if (err instanceof Error && err.name === "AbortError") return { message: "request aborted", retryable: false };
  if (err instanceof IncompleteStreamError) return { message: err.message, retryable: true };
  return describeFailure(err, NOT_SDK_ERRORS, now);
}

function httpFailure(status: number, body: string, headers: Headers | undefined, now: number): Failure {
  const { reason, message, retryDelayMs } = bodyError(body);
  const failure: Failure = {
    message: `HTTP ${status}${reason ? ` ${reason}` : ""}: ${message ?? "no message"}`,
    retryable: status === 408 || status === 429 || status >= 500,
    status,
  };
  const after = parseRetryAfter(headers, now) ?? retryDelayMs;
  if (after !== undefined) failure.retryAfterMs = after;
  return failure;
}

/** `status` (RESOURCE_EXHAUSTED, …), `message`, and a RetryInfo detail's `retryDelay` ("13s"). */
function bodyError(body: string): { reason?: string; message?: string; retryDelayMs?: number } {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    const text = body.replace(/\s+/g, " ").trim();
    return text ? { message: text.slice(0, 300) } : {};
  }
  const inner = isJsonObject(data) && isJsonObject(data.error) ? data.error : isJsonObject(data) ? data : {};
  const reason = typeof inner.status === "string" ? inner.status : undefined;
  const message = typeof inner.message === "string" ? inner.message : undefined;
  const details = Array.isArray(inner.details) ? inner.details : [];
  const delay = details.map((d) => (isJsonObject(d) ? d.retryDelay : undefined)).find((d) => typeof d === "string") as string | undefined;
  const seconds = delay ? Number.parseFloat(delay) : Number.NaN;
  return { reason, message, ...(Number.isFinite(seconds) ? { retryDelayMs: Math.max(0, seconds * 1000) } : {}) };
}
