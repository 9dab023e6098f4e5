// The --no-yolo confirmer: each tool call waits for y (yes), a (always this tool), s (always
// this session) or n (no). Requests arriving together wait in line; a cancelled run withdraws
// its request.
import type { ConfirmAnswer, ConfirmRequest, Confirmer } from "../../agent/loop/permissions.ts";
import type { Key } from "./keys.ts";

interface Pending {
  request: ConfirmRequest;
  resolve(answer: ConfirmAnswer): void;
  reject(err: Error): void;
}

const ANSWERS: Record<string, ConfirmAnswer> = { y: "yes", a: "always_tool", s: "always_session", n: "no" };

export class ConfirmQueue {
  private readonly pending: Pending[] = [];

  constructor(private readonly changed: () => void) {}

  /** The request being asked now. */
  get current(): ConfirmRequest | undefined {
    return this.pending[0]?.request;
  }

  readonly confirmer: Confirmer = (request) =>
    new Promise<ConfirmAnswer>((resolve, reject) => {
      const entry: Pending = { request, resolve, reject };
      if (request.signal.aborted) return reject(new Error("cancelled"));
      request.signal.addEventListener("abort", () => this.settle(entry, () => reject(new Error("cancelled"))), { once: true });
      this.pending.push(entry);
      this.changed();
    });

  /** Handles a key while a request is shown; returns false when the key is not an answer. */
  handle(key: Key): boolean {
    const entry = this.pending[0];
    if (!entry) return false;
    let answer: ConfirmAnswer | undefined;
    if (key.name === "rune") answer = ANSWERS[(key.text ?? "").toLowerCase()];
    else if (key.name === "esc") answer = "no";
    if (!answer) return false;
    const chosen = answer;
    this.settle(entry, () => entry.resolve(chosen));
    return true;
  }

  /** Withdraws every request (exit). */
  cancelAll(): void {
    for (const entry of [...this.pending]) this.settle(entry, () => entry.reject(new Error("cancelled")));
  }

  private settle(entry: Pending, done: () => void): void {
    const index = this.pending.indexOf(entry);
    if (index < 0) return;
    this.pending.splice(index, 1);
    done();
    this.changed();
  }
}
