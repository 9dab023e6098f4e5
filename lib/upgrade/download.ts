// Downloads for `zot upgrade`: http(s) through fetch (Node 20, Bun and Deno all have it) and
// file:// from disk, for a mirror that is a local folder. Every failure names the URL, and a
// server that stops sending (no byte for `stallMs`) is a failure too, not a hang.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

export type Fetcher = (url: string, init: { signal: AbortSignal }) => Promise<Response>;

export class DownloadError extends Error {}

export const STALL_MS = 30_000;

export interface DownloadOptions {
  fetcher?: Fetcher;
  /** How long the server may send nothing before the download fails. */
  stallMs?: number;
}

export async function download(url: string, { fetcher = fetch, stallMs = STALL_MS }: DownloadOptions = {}): Promise<Uint8Array> {
  if (url.startsWith("file:")) {
    try {
      return new Uint8Array(await readFile(fileURLToPath(url)));
    } catch (err) {
      throw new DownloadError(`could not download ${url}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(), stallMs);
  };
  const failed = (err: unknown) => {
    if (controller.signal.aborted) return new DownloadError(`could not download ${url}: no data for ${stallMs / 1000} s`);
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return new DownloadError(`could not download ${url}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  };
  watch();
  try {
    let response: Response;
    try {
      response = await fetcher(url, { signal: controller.signal });
    } catch (err) {
      throw failed(err);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new DownloadError(`could not download ${url}: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`);
    }
    const chunks: Uint8Array[] = [];
    const reader = response.body?.getReader();
    try {
      for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) {
        chunks.push(read.value);
        watch();
      }
    } catch (err) {
      throw failed(err);
    }
    return new Uint8Array(Buffer.concat(chunks));
  } finally {
    clearTimeout(timer);
  }
}
