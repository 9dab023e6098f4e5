// A WebSocket message's payload as one Buffer, whichever of ws's shapes it arrived in (a Buffer,
// fragments, or an ArrayBuffer). Shared by every place zot reads frames or commands from a socket.
export function messageBytes(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  return Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}

/** A message's text as one line: a trailing "\n", then a trailing "\r", is not part of it. */
export function messageLine(bytes: Buffer): string {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === 0x0a) end--;
  if (end > 0 && bytes[end - 1] === 0x0d) end--;
  return bytes.toString("utf8", 0, end);
}

/** ws://HOST:PORT/PATH, with an IPv6 host in brackets. */
export function wsUrl(host: string, port: number, path: string): string {
  return `ws://${host.includes(":") ? `[${host}]` : host}:${port}${path}`;
}
