// `zot login [--provider NAME] [--with-api-key] [--base-url URL]`, `zot login --status` and
// `zot logout [PROVIDER]`. On a terminal the key is typed with no echo; `--with-api-key` reads it
// from stdin for scripts and CI (like `gh auth login --with-token`). Messages go to stderr, the
// status table to stdout; no output ever contains a key.
import type { ArgsDef } from "citty";
import { createInterface } from "node:readline/promises";
import { keySources, logIn, logOut } from "../app/login.ts";
import { readConfig } from "../config.ts";
import { zotPaths } from "../paths.ts";
import { isProviderName, PROVIDER_NAMES, type ProviderName } from "../providers/index.ts";
import { printable } from "../terminal-text.ts";
import { checkArgs, parseChecked, UsageError } from "./args.ts";
import { commandHelp } from "./usage.ts";
import { readHidden } from "./hidden-input.ts";

type Env = Record<string, string | undefined>;

export const LOGIN_ARGS = {
  provider: { type: "string", valueHint: PROVIDER_NAMES.join("|"), description: "Provider to log in to (asked on a terminal; else ZOT_PROVIDER, the last one used, or anthropic)" },
  "with-api-key": { type: "boolean", description: "Read the key from stdin instead of asking (scripts, CI)" },
  "base-url": { type: "string", valueHint: "URL", description: "Check the key against this endpoint (default: ZOT_BASE_URL, else the provider's API)" },
  status: { type: "boolean", description: "List each provider and where its key comes from (never the key)" },
} as const satisfies ArgsDef;

export const loginCommand = {
  meta: { name: "login", description: "Check an API key with the provider and save it in $ZOT_HOME/auth.json (mode 0600)" },
  args: LOGIN_ARGS,
};

export const LOGOUT_ARGS = {
  provider: { type: "positional", required: false, description: `Provider whose saved key to remove (${PROVIDER_NAMES.join(", ")}); default: every one` },
} as const satisfies ArgsDef;

export const logoutCommand = {
  meta: { name: "logout", description: "Remove saved API keys from $ZOT_HOME/auth.json" },
  args: LOGOUT_ARGS,
};

function wantsHelp(argv: string[]): boolean {
  return argv.includes("--help") || argv.includes("-h");
}

function providerArg(name: string): ProviderName {
  if (!isProviderName(name)) throw new UsageError(`unknown provider "${name}" (use ${PROVIDER_NAMES.join(" or ")})`);
  return name;
}

export async function runLogin(argv: string[], env: Env = process.env): Promise<number> {
  if (wantsHelp(argv)) {
    process.stdout.write(await commandHelp(loginCommand, "zot", process.stdout, env));
    return 0;
  }
  return usageErrors(async () => {
    const parsed = parseChecked(argv, LOGIN_ARGS, checkLoginArgs(argv));
    const paths = zotPaths(env);
    if (parsed.status === true) return printStatus(paths.auth, env);
    const interactive = parsed["with-api-key"] !== true;
    if (interactive && !process.stdin.isTTY) {
      throw new UsageError("no terminal to type the key in: pipe it in with --with-api-key (printf '%s' \"$KEY\" | zot login --provider NAME --with-api-key)");
    }
    const fallback = await defaultProvider(paths.config, env);
    const provider = typeof parsed.provider === "string" ? providerArg(parsed.provider)
      : interactive ? await askProvider(fallback) : fallback;
    if (provider === undefined) return 130;
    const key = interactive ? await readHidden(`API key for ${provider} (input hidden): `) : await readAll(process.stdin);
    if (key === undefined) return 130;
    const baseUrl = (typeof parsed["base-url"] === "string" ? parsed["base-url"] : env.ZOT_BASE_URL)?.trim() || undefined;
    if (baseUrl !== undefined && !URL.canParse(baseUrl)) throw new UsageError(`invalid base URL "${baseUrl}"`);
    if (interactive) process.stderr.write(`Checking the key with ${provider}…\n`);
    const outcome = await logIn({ provider, key, ...(baseUrl ? { baseUrl } : {}), authFile: paths.auth, env });
    process.stderr.write(`${outcome.ok ? "" : "zot: "}${printable(outcome.message)}\n`);
    return outcome.ok ? 0 : 1;
  });
}

export async function runLogout(argv: string[], env: Env = process.env): Promise<number> {
  if (wantsHelp(argv)) {
    process.stdout.write(await commandHelp(logoutCommand, "zot", process.stdout, env));
    return 0;
  }
  return usageErrors(async () => {
    const parsed = parseChecked(argv, LOGOUT_ARGS, checkArgs(argv, LOGOUT_ARGS));
    const providers = typeof parsed.provider === "string" ? [providerArg(parsed.provider)] : PROVIDER_NAMES;
    const outcome = await logOut(providers, zotPaths(env).auth, env);
    process.stderr.write(`${outcome.ok ? "" : "zot: "}${printable(outcome.message)}\n`);
    return outcome.ok ? 0 : 1;
  });
}

/** As checkArgs, except that a stray argument, which may be a key, is not repeated back. */
function checkLoginArgs(argv: string[]): Set<string> {
  try {
    return checkArgs(argv, LOGIN_ARGS);
  } catch (err) {
    if (err instanceof UsageError && err.message.startsWith("unexpected argument")) {
      throw new UsageError("zot login takes no arguments: the key is asked for on the terminal, or read from stdin with --with-api-key");
    }
    throw err;
  }
}

async function usageErrors(run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`zot: ${printable(err.message)}\n`);
    return 2;
  }
}

function printStatus(authFile: string, env: Env): number {
  const rows = keySources(PROVIDER_NAMES, authFile, env);
  const width = Math.max(...rows.map((r) => r.provider.length));
  const lines = rows.map((r) => `${r.provider.padEnd(width)}  ${r.source ?? `no key (zot login --provider ${r.provider})`}`
    + (r.note ? `\n${" ".repeat(width + 2)}${r.note}` : ""));
  process.stdout.write(`${printable(lines.join("\n"))}\n`);
  return 0;
}

/** ZOT_PROVIDER, else the provider of the last run (config.json), else anthropic. */
async function defaultProvider(configPath: string, env: Env): Promise<ProviderName> {
  if (env.ZOT_PROVIDER) return providerArg(env.ZOT_PROVIDER);
  const saved = (await readConfig(configPath)).provider;
  return typeof saved === "string" && isProviderName(saved) ? saved : "anthropic";
}

async function askProvider(fallback: ProviderName): Promise<ProviderName | undefined> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    for (;;) {
      const answer = (await rl.question(`Provider (${PROVIDER_NAMES.join(", ")}) [${fallback}]: `)).trim().toLowerCase();
      if (answer === "") return fallback;
      if (isProviderName(answer)) return answer;
      process.stderr.write(`zot: unknown provider "${printable(answer)}"\n`);
    }
  } catch {
    return undefined; // Ctrl+C or Ctrl+D ended the question
  } finally {
    rl.close();
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of stream) text += String(chunk);
  return text;
}
