// Errors every layer may raise and the CLI maps to exit codes.

/** A bad flag or argument: printed as `zot: <message>` and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
