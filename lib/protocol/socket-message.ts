// A WebSocket message's payload as one Buffer, whichever of ws's shapes it arrived in (a Buffer,
// fragments, or an ArrayBuffer). Shared by every place zot reads frames or commands from a socket.
export function messageBytes(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  return Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}
