// The bridge's settings, read once from the environment: the bot token, the Bot API's address,
// and the polling timings (injectable so tests need no long waits).

export interface BridgeConfig {
  /** Undefined when TELEGRAM_BOT_TOKEN is not set (or not passed to the extension by zot). */
  token: string | undefined;
  /** Without a trailing slash; https://api.telegram.org unless TELEGRAM_API_URL says otherwise. */
  apiUrl: string;
  /** getUpdates' long-poll `timeout`, in seconds. */
  pollTimeoutS: number;
  /** First and longest wait between failed polls, in milliseconds. */
  backoffMs: { first: number; max: number };
}

const DEFAULT_API_URL = "https://api.telegram.org";

function positive(raw: string | undefined, fallback: number): number {
  const n = Number(raw);
  return raw !== undefined && raw.trim() !== "" && Number.isFinite(n) && n >= 0 ? n : fallback;
}

/** TELEGRAM_BACKOFF_MS is "first" or "first,max" (default 1000,60000). */
function backoff(raw: string | undefined): { first: number; max: number } {
  const [first, max] = (raw ?? "").split(",");
  const f = positive(first, 1_000);
  return { first: f, max: Math.max(f, positive(max, Math.max(f, 60_000))) };
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): BridgeConfig {
  const token = env.TELEGRAM_BOT_TOKEN?.trim();
  return {
    token: token ? token : undefined,
    apiUrl: (env.TELEGRAM_API_URL?.trim() || DEFAULT_API_URL).replace(/\/+$/, ""),
    pollTimeoutS: positive(env.TELEGRAM_POLL_TIMEOUT_S, 30),
    backoffMs: backoff(env.TELEGRAM_BACKOFF_MS),
  };
}
