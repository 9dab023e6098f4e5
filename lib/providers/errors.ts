// Turning whatever an SDK call threw into a `Failure`: a message fit for the user and whether
// asking again may help. Both SDKs share one error shape (status, headers, parsed body).
import { isJsonObject } from "../protocol/json-object.ts";

/** A classified request failure. */
export interface Failure {
  message: string;
  retryable: boolean;
  /** The HTTP status, when the server answered with one. */
  status?: number;
  /** Server-requested wait before the next attempt (`retry-after-ms` / `retry-after`). */
  retryAfterMs?: number;
}

/** The stream ended (cleanly, from the socket's view) before the response was complete. */
export class IncompleteStreamError extends Error {
  constructor(message = "the connection closed before the response was complete") {
    super(message);
    this.name = "IncompleteStreamError";
  }
}

type ErrorClass = abstract new (...args: never[]) => Error;

/** The error classes of one SDK; `describeFailure` recognises errors by them. */
export interface SdkErrorClasses {
  APIError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIUserAbortError: ErrorClass;
}

interface ApiErrorLike extends Error {
  status?: number;
  headers?: Headers;
  error?: unknown;
}

/** Error types a stream can report mid-way that mean "try again later". */
const TRANSIENT_ERROR_TYPES = new Set(["overloaded_error", "api_error", "rate_limit_error", "server_error", "timeout_error"]);

export function describeFailure(err: unknown, sdk: SdkErrorClasses, now = Date.now()): Failure {
  if (err instanceof sdk.APIUserAbortError) return { message: "request aborted", retryable: false };
  const refused = localRefusal(err);
  if (refused) return refused;
  if (err instanceof sdk.APIConnectionError) {
    return { message: `connection error: ${rootCauseMessage(err)}`, retryable: true };
  }
  if (err instanceof sdk.APIError) return describeApiError(err as ApiErrorLike, now);
  if (err instanceof IncompleteStreamError) return { message: err.message, retryable: true };
  if (isNetworkError(err)) return { message: `connection error: ${rootCauseMessage(err as Error)}`, retryable: true };
  return { message: err instanceof Error ? err.message : String(err), retryable: false };
}

function describeApiError(err: ApiErrorLike, now: number): Failure {
  const { type, message } = bodyError(err.error);
  const text = message ?? err.message;
  if (err.status === undefined) {
    // An error event inside an otherwise successful stream.
    return { message: type ? `${type}: ${text}` : text, retryable: type !== undefined && TRANSIENT_ERROR_TYPES.has(type) };
  }
  const status = err.status;
  const failure: Failure = {
    message: `HTTP ${status}${type ? ` ${type}` : ""}: ${text}`,
    retryable: status === 408 || status === 409 || status === 429 || status >= 500,
    status,
  };
  const shouldRetry = err.headers?.get("x-should-retry");
  if (shouldRetry === "true") failure.retryable = true;
  if (shouldRetry === "false") failure.retryable = false;
  const after = parseRetryAfter(err.headers, now);
  if (after !== undefined) failure.retryAfterMs = after;
  return failure;
}

/**
 * The server's requested wait in milliseconds: `retry-after-ms`, else `retry-after` as seconds
 * or an HTTP date. `undefined` when absent or unreadable.
 */
export function parseRetryAfter(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  if (Number.isFinite(Number(value))) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** `{type, message}` from an Anthropic body (`{error: {type, message}}`) or an OpenAI error object. */
function bodyError(body: unknown): { type?: string; message?: string } {
  if (!isJsonObject(body)) return typeof body === "string" && body ? { message: body } : {};
  const inner = isJsonObject(body.error) ? body.error : body;
  const type = typeof inner.type === "string" ? inner.type : undefined;
  const message = typeof inner.message === "string" ? inner.message : undefined;
  return { type, message };
}

// fetch reports socket failures while reading a body as TypeError("terminated") and friends,
// with the system error (ECONNRESET, …) as the cause.
const NETWORK_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]);

function isNetworkError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_CODES.has(code)) return true;
    if (e.name === "TypeError" && /terminated|fetch failed|socket|connection|network/i.test(e.message)) return true;
  }
  return false;
}

/**
 * A refused connection to this machine or the local network: no server is listening, and waiting
 * will not start one, so it fails at once with a hint instead of being retried for seconds. A
 * remote host that refuses may be restarting: that one is retried like any connection failure.
 */
function localRefusal(err: unknown): Failure | undefined {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const { code, address, port, path } = e as { code?: unknown; address?: unknown; port?: unknown; path?: unknown };
    if (code !== "ECONNREFUSED" && code !== "ConnectionRefused") continue;
    let host = typeof address === "string" ? address : undefined;
    let where = host && port !== undefined ? `${host}:${String(port)}` : host;
    if (!host && typeof path === "string" && URL.canParse(path)) {
      host = new URL(path).hostname.replace(/^\[|\]$/g, "");
      where = new URL(path).host;
    }
    if (!host || !isLocalAddress(host)) return undefined;
    return { message: `connection refused: nothing listens on ${where}; is \`ollama serve\` (or your server) running?`, retryable: false };
  }
  return undefined;
}

/** Loopback, a private (RFC 1918) or link-local address, or localhost. */
export function isLocalAddress(host: string): boolean {
  const h = host.toLowerCase().replace(/^::ffff:/, "");
  if (h === "localhost" || h === "::1" || h.startsWith("fe80:") || /^f[cd][0-9a-f]{2}:/.test(h)) return true;
  const [a, b] = h.split(".").map(Number);
  if (h.split(".").length !== 4 || a === undefined || b === undefined || Number.isNaN(a) || Number.isNaN(b)) return false;
  return a === 127 || a === 10 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || (a === 169 && b === 254);
}

function rootCauseMessage(err: Error): string {
  let e: Error = err;
  for (let depth = 0; e.cause instanceof Error && depth < 5; depth++) e = e.cause;
  return e.message || err.message;
}

/**
 * The tool a provider's HTTP 400 blames, if any: by its position in the request's tool list
 * (`tools.3.custom.name`, `tools[3].function`) or by its name. `toolNames` is that list, in the
 * order it was sent. Providers name tools either way; neither is a stable format, so this only
 * ever narrows a 400 down to a tool that was actually offered.
 */
export function toolBlamedBy(error: string, toolNames: readonly string[]): string | undefined {
  if (!/^HTTP 400\b/.test(error)) return undefined;
  const index = /\btools(?:\.|\[)(\d+)/.exec(error);
  if (index) return toolNames[Number(index[1])];
  // A name counts as a whole word only, so `read` is not found inside `read_file`.
  const word = (name: string) => new RegExp(`(^|[^a-zA-Z0-9_-])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^a-zA-Z0-9_-])`);
  return toolNames.find((name) => word(name).test(error));
}
