// Messages to Telegram, sent one at a time in order (a long answer's pieces must not overtake
// each other). A send that fails for want of a network is retried with the poller's backoff a few
// times, then dropped with a log line: an unreachable Telegram must not pile up memory forever.
import { setTimeout as sleep } from "node:timers/promises";
import { ApiError, type BotApi } from "./bot-api.ts";

const ATTEMPTS = 5;
/** More than this many messages waiting means Telegram is gone for a while: drop the oldest. */
const MAX_QUEUED = 200;

export class Outbox {
  private queue: Array<{ chatId: number; text: string }> = [];
  private draining = false;

  constructor(
    private readonly api: () => BotApi | undefined,
    private readonly delayFor: (attempt: number, error: Error) => number,
    private readonly log: (message: string) => void,
  ) {}

  send(chatId: number, text: string): void {
    this.queue.push({ chatId, text });
    if (this.queue.length > MAX_QUEUED) {
      this.queue.shift();
      this.log("too many messages waiting for Telegram: dropped the oldest");
    }
    if (!this.draining) void this.drain();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) await this.deliver(next.chatId, next.text);
    } finally {
      this.draining = false;
    }
  }

  private async deliver(chatId: number, text: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const api = this.api();
      if (!api) return;
      try {
        await api.sendMessage(chatId, text);
        return;
      } catch (err) {
        const error = err instanceof Error ? err : new Error(String(err));
        // An API refusal other than flood control (chat gone, text rejected) will not change.
        const retryable = !(error instanceof ApiError) || error.status === 429 || error.status >= 500;
        if (!retryable || attempt >= ATTEMPTS) {
          this.log(`could not send a message to Telegram: ${error.message}`);
          return;
        }
        await sleep(this.delayFor(attempt, error));
      }
    }
  }
}
