// The bridge between one Telegram chat and the zot session: pairing by one-time code, turning
// the paired user's private messages into prompts, and sending answers and tool calls back.
// Everyone else is ignored (told once that the bot is not theirs).
import { randomInt } from "node:crypto";
import { ApiError, BotApi, type BotInfo, type IncomingMessage } from "./bot-api.ts";
import type { BridgeConfig } from "./config.ts";
import { splitMessage, toolLine } from "./format.ts";
import { Outbox } from "./outbox.ts";
import type { PairingStore } from "./pairing-store.ts";
import { backoffDelay, Poller } from "./poller.ts";

export interface BridgeHost {
  submit(text: string): void;
  notify(level: "info" | "success" | "warn" | "error", message: string): void;
  log(message: string): void;
}

/** A failure to show the user as the command's error. */
export class UserError extends Error {}

const CODE_TTL_MS = 10 * 60_000;
/** Wrong codes tolerated before the pending code is withdrawn (a 6-digit code must not be guessable). */
const MAX_WRONG_CODES = 5;
/** Failed polls in a row before the user hears about it (one blip is not news). */
const NOTIFY_AFTER_FAILURES = 2;

interface PendingCode {
  code: string;
  expiresAt: number;
  wrongTries: number;
  timer: NodeJS.Timeout;
}

export class Bridge {
  private readonly api: BotApi | undefined;
  private readonly poller: Poller | undefined;
  private readonly outbox: Outbox;
  private pending: PendingCode | undefined;
  private bot: BotInfo | undefined;
  /** Chats already told "not paired", so a stranger gets that answer once. */
  private readonly toldStrangers = new Set<number>();
  private troubleNotified = false;
  private fatalError: string | undefined;

  constructor(private readonly config: BridgeConfig, private readonly store: PairingStore, private readonly host: BridgeHost,
    private readonly now: () => number = Date.now) {
    this.api = config.token ? new BotApi(config.apiUrl, config.token) : undefined;
    this.poller = this.api ? new Poller(this.api, { timeoutS: config.pollTimeoutS, backoffMs: config.backoffMs }, {
      onMessage: (m, backlog) => this.handle(m, backlog),
      onTrouble: (err, delay, attempt) => this.onTrouble(err, delay, attempt),
      onRecovered: () => this.onRecovered(),
      onFatal: (err) => {
        this.fatalError = err.message;
        host.notify("error", `Telegram refused the bot token (${err.message}); polling stopped. Check TELEGRAM_BOT_TOKEN.`);
      },
      log: host.log,
    }) : undefined;
    this.outbox = new Outbox(() => this.api, (attempt, err) => backoffDelay(attempt, err, config.backoffMs), host.log);
  }

  /** At startup: a saved pairing resumes polling at once. */
  resume(): void {
    if (this.store.pairing && this.poller) this.poller.start();
  }

  /** `/telegram pair`: checks the token, then shows a one-time code to send to the bot. */
  async pair(): Promise<string> {
    if (!this.api || !this.poller) throw new UserError(noTokenText());
    try {
      this.bot = await this.api.getMe();
    } catch (err) {
      if (err instanceof ApiError && err.fatal) throw new UserError(`Telegram refused the bot token (${err.message}): check TELEGRAM_BOT_TOKEN`);
      throw new UserError(`cannot reach the Telegram bot at ${this.config.apiUrl}: ${(err as Error).message}`);
    }
    this.withdrawCode();
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    const timer = setTimeout(() => this.expire(code), CODE_TTL_MS);
    timer.unref();
    this.pending = { code, expiresAt: this.now() + CODE_TTL_MS, wrongTries: 0, timer };
    this.fatalError = undefined;
    this.poller.start();
    const replaces = this.store.pairing ? `\n(This replaces the pairing with ${this.store.pairing.name}.)` : "";
    return `Send ${code} to @${this.bot.username} in a private Telegram chat within 10 minutes `
      + `(or open https://t.me/${this.bot.username}?start=${code}).${replaces}`;
  }

  /** `/telegram status`. */
  status(): string {
    if (!this.poller) return noTokenText();
    const lines: string[] = [];
    const pairing = this.store.pairing;
    lines.push(pairing ? `Paired with ${pairing.name} (chat ${pairing.chatId}) since ${pairing.pairedAt}.` : "Not paired.");
    if (this.pending) {
      const minutes = Math.max(1, Math.ceil((this.pending.expiresAt - this.now()) / 60_000));
      lines.push(`Pairing code ${this.pending.code} is waiting (expires in ${minutes} min).`);
    } else if (!pairing) lines.push("Pair a chat with /telegram pair.");
    if (this.fatalError) lines.push(`Polling stopped: ${this.fatalError}`);
    else if (this.poller.lastError) lines.push(`Polling: retrying (${this.poller.lastError}).`);
    else lines.push(`Polling: ${this.poller.running ? "on" : "off"}.`);
    lines.push(`Bot API: ${this.config.apiUrl}${this.bot ? ` (@${this.bot.username})` : ""}`);
    return lines.join("\n");
  }

  /** `/telegram disconnect`: forgets the pairing and stops polling. */
  disconnect(): string {
    const pairing = this.store.pairing;
    const hadCode = this.pending !== undefined;
    this.withdrawCode();
    this.poller?.stop();
    if (!pairing) return hadCode ? "Not paired; the pairing code was withdrawn." : "Not paired.";
    this.store.clear();
    this.outbox.send(pairing.chatId, "zot disconnected this chat: messages here no longer reach it.");
    return `Disconnected from ${pairing.name}.`;
  }

  /** The assistant's visible text, to the paired chat in pieces Telegram accepts. */
  onAssistantMessage(text: string): void {
    const chat = this.store.pairing?.chatId;
    if (chat === undefined) return;
    for (const piece of splitMessage(text)) this.outbox.send(chat, piece);
  }

  onToolCall(toolName: string, args: unknown): void {
    const chat = this.store.pairing?.chatId;
    if (chat !== undefined) this.outbox.send(chat, toolLine(toolName, args));
  }

  private handle(message: IncomingMessage, backlog: boolean): void {
    // Groups and channels never: the bridge talks to one person.
    if (message.chatType !== "private" || message.fromId === undefined) return;
    const text = (message.text ?? "").trim();
    if (this.pending && (text === this.pending.code || text === `/start ${this.pending.code}`)) return this.pairWith(message);
    const pairing = this.store.pairing;
    if (pairing && message.fromId === pairing.userId && message.chatId === pairing.chatId) return this.fromOwner(message, text, backlog);
    if (this.pending && /^(\/start\s+)?\d{6}$/.test(text) && ++this.pending.wrongTries >= MAX_WRONG_CODES) {
      this.withdrawCode();
      this.host.notify("warn", "Telegram: too many wrong pairing codes; the code was withdrawn. Run /telegram pair again.");
    }
    if (!this.toldStrangers.has(message.chatId)) {
      this.toldStrangers.add(message.chatId);
      this.outbox.send(message.chatId, "This bot is not paired with you.");
    }
    this.host.log(`ignored a message from ${message.fromName} (chat ${message.chatId}): not the paired user`);
  }

  private fromOwner(message: IncomingMessage, text: string, backlog: boolean): void {
    const chat = message.chatId;
    if (backlog) {
      // Queued while zot was not running: running stale instructions unattended would surprise.
      this.outbox.send(chat, "(Sent while zot was not running: not forwarded. Send it again.)");
      return;
    }
    if (text === "") return this.outbox.send(chat, "Only text messages reach zot.");
    if (text === "/start") return this.outbox.send(chat, "Paired with zot: your messages here become prompts.");
    this.host.submit(message.text!);
  }

  private pairWith(message: IncomingMessage): void {
    this.withdrawCode();
    this.store.save({ chatId: message.chatId, userId: message.fromId!, name: message.fromName, pairedAt: new Date(this.now()).toISOString() });
    this.toldStrangers.delete(message.chatId);
    this.outbox.send(message.chatId, "Paired with zot: your messages here become prompts, and its answers come back here.");
    this.host.notify("success", `Telegram: paired with ${message.fromName}`);
  }

  private withdrawCode(): void {
    if (this.pending) clearTimeout(this.pending.timer);
    this.pending = undefined;
  }

  private expire(code: string): void {
    if (this.pending?.code !== code) return;
    this.withdrawCode();
    // Nothing to listen for any more: stop reaching out to Telegram.
    if (!this.store.pairing) this.poller?.stop();
    this.host.notify("info", "Telegram: the pairing code expired. Run /telegram pair again.");
  }

  private onTrouble(err: Error, delayMs: number, attempt: number): void {
    this.host.log(`polling failed (${attempt} in a row): ${err.message}; retrying in ${delayMs} ms`);
    if (attempt >= NOTIFY_AFTER_FAILURES && !this.troubleNotified) {
      this.troubleNotified = true;
      this.host.notify("warn", `Telegram is unreachable (${err.message}); retrying.`);
    }
  }

  private onRecovered(): void {
    this.host.log("polling works again");
    if (this.troubleNotified) this.host.notify("success", "Telegram is reachable again.");
    this.troubleNotified = false;
  }
}

function noTokenText(): string {
  return "TELEGRAM_BOT_TOKEN is not set for the extension: create a bot with @BotFather, export its token "
    + "and start zot again (see examples/extensions/telegram/README.md).";
}
