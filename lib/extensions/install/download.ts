// One tarball download for an install: fetched fresh every time (never from a cache), with a
// deadline that counts time without progress, and errors that name the URL and what went wrong
// (the HTTP status, the network error, or the silence).
import { createWriteStream } from "node:fs";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";

/** How long a download or clone may go without receiving anything before it is abandoned. */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

export interface DownloadOptions {
  headers?: Record<string, string>;
  /** What the user asked for (`gh:o/r`), when it is not the URL itself; errors name both. */
  source?: string;
  /** Abandon after this long without a byte (waiting for the answer included). */
  idleTimeoutMs?: number;
}

/** "60 s" / "250 ms". */
export function describeDuration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** The innermost message of a fetch failure: `connect ECONNREFUSED 127.0.0.2:8`, not `fetch failed`. */
function networkReason(err: unknown, url?: string): string {
  let e: unknown = err;
  for (let depth = 0; e instanceof Error && e.cause instanceof Error && depth < 5; depth++) e = e.cause;
  const code = (e as { code?: unknown })?.code;
  const message = e instanceof Error ? e.message : String(e);
  if (message === "bad port" && url) return `fetch refuses port ${new URL(url).port} (it is on the list of ports browsers block)`;
  return typeof code === "string" && !message.includes(code) ? `${code}: ${message}` : message;
}

/**
 * Downloads `url` into `file`. Throws an Error naming the URL and the HTTP status, the network
 * error, or the idle deadline; a partial file may be left for the caller to remove.
 */
export async function downloadFile(url: string, file: string, options: DownloadOptions = {}): Promise<void> {
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const controller = new AbortController();
  let idle = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      idle = true;
      controller.abort();
    }, idleMs);
  };
  const from = options.source !== undefined && options.source !== url ? ` (${url})` : "";
  const fail = (why: string) => new Error(`download of ${options.source ?? url} failed: ${why}${from}; nothing was installed`);
  touch();
  try {
    let response: Response;
    try {
      response = await fetch(url, { headers: options.headers, signal: controller.signal, redirect: "follow" });
    } catch (err) {
      throw idle ? fail(`no answer within ${describeDuration(idleMs)}`) : fail(networkReason(err, url));
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw fail(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`);
    }
    if (!response.body) throw fail("the response has no body");
    const progress = new Transform({
      transform(chunk, _encoding, done) {
        touch();
        done(null, chunk);
      },
    });
    try {
      await pipeline(Readable.fromWeb(response.body as import("node:stream/web").ReadableStream), progress, createWriteStream(file));
    } catch (err) {
      throw idle ? fail(`no data for ${describeDuration(idleMs)}`) : fail(networkReason(err));
    }
  } finally {
    clearTimeout(timer);
  }
}
