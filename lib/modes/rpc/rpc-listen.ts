// Where `zot rpc --listen` may listen, without the socket library: the argument parser checks the
// address before anything starts.

export interface RpcListen {
  url: URL;
  /** --listen-any: any host and any Origin (the token is then the only gate). */
  any: boolean;
}

