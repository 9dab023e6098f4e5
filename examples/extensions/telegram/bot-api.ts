// A minimal Telegram Bot API client (getMe, getUpdates, sendMessage) over fetch. Wire objects
// stay snake_case in here; callers get camelCase values and two kinds of failure: ApiError (the
// API answered no) and NetworkError (no answer at all), which decide whether to retry.

/** The API answered `ok: false` (or something that is not the API at all). */
export class ApiError extends Error {
  constructor(readonly method: string, readonly status: number, description: string, readonly retryAfterS?: number) {
    super(`${method}: ${description} (HTTP ${status})`);
  }

  /** The token is wrong or revoked: retrying cannot help. */
  get fatal(): boolean {
    return this.status === 401 || this.status === 404;
  }
}

/** No usable answer: the server is unreachable, the connection broke, or it timed out. */
export class NetworkError extends Error {
  constructor(readonly method: string, cause: unknown) {
    super(`${method}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

export interface BotInfo {
  id: number;
  username: string;
}

/** A text message (or a message without text: `text` undefined), as the bridge needs it. */
export interface IncomingMessage {
  updateId: number;
  chatId: number;
  /** "private", "group", "supergroup" or "channel". */
  chatType: string;
  fromId: number | undefined;
  /** @username, else the first name, for the user's notes. */
  fromName: string;
  text: string | undefined;
}

/** One update: its id (to confirm it) and, for the kind the bridge asks for, the message. */
export interface Update {
  updateId: number;
  message?: IncomingMessage;
}

interface WireUpdate {
  update_id: number;
  message?: {
    text?: string;
    chat: { id: number; type: string };
    from?: { id: number; username?: string; first_name?: string };
  };
}

/** Longer than any answer we ask for: a request still open after this is a dead connection. */
const REQUEST_SLACK_MS = 15_000;

export class BotApi {
  constructor(private readonly apiUrl: string, private readonly token: string) {}

  async getMe(signal?: AbortSignal): Promise<BotInfo> {
    const me = await this.call<{ id: number; username?: string }>("getMe", {}, 0, signal);
    return { id: me.id, username: me.username ?? String(me.id) };
  }

  /**
   * Long-polls for updates after `offset`; the server answers within `timeoutS` seconds. Each
   * update comes back with its id, so the caller can confirm it (the next `offset`) even when
   * it is not a message the bridge uses.
   */
  async getUpdates(offset: number | undefined, timeoutS: number, signal?: AbortSignal): Promise<Update[]> {
    const params = { ...(offset === undefined ? {} : { offset }), timeout: timeoutS, allowed_updates: ["message"] };
    const updates = await this.call<WireUpdate[]>("getUpdates", params, timeoutS * 1000, signal);
    return updates.map((u) => ({ updateId: u.update_id, ...(u.message ? { message: toMessage(u) } : {}) }));
  }

  /** Sends plain text (no parse_mode, so nothing in an answer can break Markdown parsing). */
  async sendMessage(chatId: number, text: string, signal?: AbortSignal): Promise<void> {
    await this.call("sendMessage", { chat_id: chatId, text }, 0, signal);
  }

  /** A runtime's error text may quote the URL, which holds the token: never let it reach a log. */
  private scrub(err: unknown): string {
    return describeFailure(err).split(this.token).join("<token>");
  }

  private async call<T>(method: string, params: object, waitMs: number, signal?: AbortSignal): Promise<T> {
    const timeout = AbortSignal.timeout(waitMs + REQUEST_SLACK_MS);
    let res: Response;
    let body: { ok?: boolean; result?: T; description?: string; parameters?: { retry_after?: number } };
    try {
      res = await fetch(`${this.apiUrl}/bot${this.token}/${method}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(params),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      body = (await res.json()) as typeof body;
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new NetworkError(method, this.scrub(err));
    }
    if (!res.ok || body.ok !== true) {
      throw new ApiError(method, res.status, body.description ?? "the API refused the request", body.parameters?.retry_after);
    }
    return body.result as T;
  }
}

/**
 * Short words for a failed fetch: the system error code (ECONNREFUSED) where Node or Bun give
 * one (Node hides it in `cause`, behind "fetch failed"), else the message.
 */
function describeFailure(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (err.name === "TimeoutError") return "no answer in time";
  const cause = err.cause instanceof Error ? err.cause : undefined;
  const code = (err as { code?: unknown }).code ?? (cause as { code?: unknown } | undefined)?.code;
  if (typeof code === "string") return code;
  return cause ? `${err.message} (${cause.message})` : err.message;
}

function toMessage(u: WireUpdate): IncomingMessage {
  const m = u.message!;
  const from = m.from;
  return {
    updateId: u.update_id,
    chatId: m.chat.id,
    chatType: m.chat.type,
    fromId: from?.id,
    fromName: from?.username ? `@${from.username}` : (from?.first_name ?? "someone"),
    text: m.text,
  };
}
