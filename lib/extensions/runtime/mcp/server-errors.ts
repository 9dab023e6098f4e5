// Errors of the MCP client side that the extension tells apart, in a module of their own: the
// extension imports them at start-up, and the SDK is loaded only when a server starts.

/** A message for a server whose stdin is gone (it exited, or never started). */
export class ServerStdinClosedError extends Error {
  constructor() {
    super("the MCP server's stdin is closed");
    this.name = "ServerStdinClosedError";
  }
}
