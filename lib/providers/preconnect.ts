// Opening the connection to the provider ahead of the first request, where the runtime can: Bun's
// fetch resolves, connects (and handshakes TLS) in its own thread, while the run still loads.
// Elsewhere it does nothing; the first request connects as before.

type PreconnectingFetch = typeof fetch & { preconnect?: (url: string) => void };

export function preconnect(url: string): void {
  try {
    (globalThis.fetch as PreconnectingFetch).preconnect?.(url);
  } catch {
    // Only a head start: a URL it cannot open is the first request's to report.
  }
}
