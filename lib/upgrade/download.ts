// Downloads for `zot upgrade`: http(s) through fetch (Node 20, Bun and Deno all have it) and
// file:// from disk, for a mirror that is a local folder. Every failure names the URL.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

export type Fetcher = (url: string) => Promise<Response>;

export class DownloadError extends Error {}

export async function download(url: string, fetcher: Fetcher = fetch): Promise<Uint8Array> {
  if (url.startsWith("file:")) {
    try {
      return new Uint8Array(await readFile(fileURLToPath(url)));
    } catch (err) {
      throw new DownloadError(`could not download ${url}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  let response: Response;
  try {
    response = await fetcher(url);
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new DownloadError(`could not download ${url}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new DownloadError(`could not download ${url}: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`);
  }
  try {
    return new Uint8Array(await response.arrayBuffer());
  } catch (err) {
    throw new DownloadError(`could not download ${url}: ${(err as Error).message}`);
  }
}
