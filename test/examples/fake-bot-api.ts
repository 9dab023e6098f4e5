// A local stand-in for Telegram's Bot API (getMe, getUpdates with long polling and offsets,
// sendMessage) on 127.0.0.1, for the telegram example's tests. It records every request, holds
// a getUpdates until a message arrives or its `timeout` runs out, and can go away and come
// back on the same port.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const BOT_TOKEN = "123456:test-token";
export const BOT_USERNAME = "zot_test_bot";

export interface TelegramUser {
  id: number;
  username: string;
}

/** One request as the extension sent it. */
export interface ApiRequest {
  method: string;
  body: Record<string, any>;
}

export interface SentMessage {
  chatId: number;
  text: string;
}

interface Waiter {
  offset: number;
  res: ServerResponse;
  timer: NodeJS.Timeout;
}

export class FakeBotApi {
  readonly requests: ApiRequest[] = [];
  readonly sent: SentMessage[] = [];
  private updates: Array<{ update_id: number; message: object }> = [];
  private nextUpdateId = 1000;
  private waiters: Waiter[] = [];
  private server: Server | undefined;
  private listeners: Array<() => void> = [];
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Listens on `port` (0: any free one, remembered for restarts). */
  async start(port = this.port): Promise<void> {
    const server = createServer((req, res) => void this.serve(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
  }

  /** Goes away: open long polls are cut and new connections refused, until start() again. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const w of this.waiters.splice(0)) clearTimeout(w.timer);
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** A private text message from `user` to the bot. */
  say(user: TelegramUser, text: string): void {
    this.push({ message_id: this.nextUpdateId, date: Math.floor(Date.now() / 1000), text,
      chat: { id: user.id, type: "private", username: user.username }, from: { id: user.id, is_bot: false, username: user.username } });
  }

  /** A message in a group the bot is in. */
  sayInGroup(user: TelegramUser, groupId: number, text: string): void {
    this.push({ message_id: this.nextUpdateId, date: Math.floor(Date.now() / 1000), text,
      chat: { id: groupId, type: "group" }, from: { id: user.id, is_bot: false, username: user.username } });
  }

  count(method: string): number {
    return this.requests.filter((r) => r.method === method).length;
  }

  sentTo(chatId: number): string[] {
    return this.sent.filter((m) => m.chatId === chatId).map((m) => m.text);
  }

  /** Resolves once `predicate` holds (checked after every request), or rejects after `timeoutMs`. */
  until(predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    if (predicate()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!predicate()) return;
        clearTimeout(timer);
        this.listeners = this.listeners.filter((l) => l !== check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.listeners = this.listeners.filter((l) => l !== check);
        reject(new Error(`timed out waiting for ${what}; requests: ${JSON.stringify(this.requests.map((r) => r.method))}; `
          + `sent: ${JSON.stringify(this.sent)}`));
      }, timeoutMs);
      this.listeners.push(check);
    });
  }

  private push(message: object): void {
    this.updates.push({ update_id: this.nextUpdateId++, message });
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      this.answerUpdates(w.res, w.offset);
    }
  }

  private answerUpdates(res: ServerResponse, offset: number): void {
    reply(res, 200, { ok: true, result: this.updates.filter((u) => u.update_id >= offset) });
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? "");
    const method = match?.[2] ?? req.url ?? "";
    const body = raw ? (JSON.parse(raw) as Record<string, any>) : {};
    this.requests.push({ method, body });
    try {
      if (!match || match[1] !== BOT_TOKEN) return reply(res, 401, { ok: false, error_code: 401, description: "Unauthorized" });
      if (method === "getMe") return reply(res, 200, { ok: true, result: { id: 42, is_bot: true, username: BOT_USERNAME } });
      if (method === "sendMessage") {
        this.sent.push({ chatId: body.chat_id, text: body.text });
        return reply(res, 200, { ok: true, result: { message_id: this.sent.length, chat: { id: body.chat_id }, text: body.text } });
      }
      if (method === "getUpdates") {
        const offset = typeof body.offset === "number" ? body.offset : 0;
        // Telegram forgets what an offset confirms.
        this.updates = this.updates.filter((u) => u.update_id >= offset);
        if (this.updates.length > 0) return this.answerUpdates(res, offset);
        const waiter: Waiter = { offset, res, timer: setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          this.answerUpdates(res, offset);
        }, (Number(body.timeout) || 0) * 1000) };
        this.waiters.push(waiter);
        return;
      }
      reply(res, 404, { ok: false, error_code: 404, description: "Not Found" });
    } finally {
      for (const l of [...this.listeners]) l();
    }
  }
}

function reply(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
