// Where `zot rpc --listen` may listen and which pages may connect, without the socket library:
// the argument parser checks the address before anything starts.

export interface RpcListen {
  url: URL;
  /** --listen-any: any host and any Origin (a token is then required). */
  any: boolean;
}

/** The hosts rpc counts as this machine, for --listen and for a browser's Origin. */
const LOOPBACK = new Set(["127.0.0.1", "[::1]", "::1", "localhost"]);

export function isRpcLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host.toLowerCase());
}
