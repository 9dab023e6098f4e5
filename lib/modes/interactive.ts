// `zot` with no -p/--mode: the line-based REPL on a terminal. Without a TTY on stdin there is
// nobody to type, so a prompt given on the command line or stdin runs as in print mode.
import { emitKeypressEvents } from "node:readline";
import { createRuntime, type Runtime } from "../app/runtime.ts";
import type { RunConfigInput } from "../app/run-config.ts";
import type { Frontend } from "../app/frontend.ts";
import { UsageError } from "../errors.ts";
import { EXIT_FAILURE, EXIT_INTERRUPTED } from "./exit-code.ts";
import { runPrint } from "./print.ts";
import { Repl } from "./repl/controller.ts";
import { normalizeKey, type RawKey } from "./repl/keys.ts";
import { PasteCollector } from "./repl/paste.ts";
import { readConfig } from "../config.ts";
import { zotPaths } from "../paths.ts";
import { colourDepth } from "../theme/palette.ts";
import { colorEnabled, makeStyle } from "./repl/style.ts";
import { startTheme } from "../theme/themes.ts";
import { queryBackground } from "./repl/background-query.ts";
import { availableThemes } from "./repl/theme-command.ts";
import { TrustQuestion } from "./repl/trust-question.ts";

/** Terminal modes: bracketed paste on (pastes arrive wrapped in ESC[200~ … ESC[201~) and off. */
const BRACKETED_PASTE_ON = "\x1b[?2004h";
const BRACKETED_PASTE_OFF = "\x1b[?2004l";

/** How long a lone ESC waits for the rest of an escape sequence before it counts as Esc. */
const ESCAPE_TIMEOUT_MS = 50;

export async function runInteractive(config: RunConfigInput, prompt: string | undefined, env: Record<string, string | undefined>,
  stdin: NodeJS.ReadStream = process.stdin, stdout: NodeJS.WriteStream = process.stdout): Promise<number> {
  if (!stdin.isTTY) return runPrint(config, prompt, env);

  const color = colorEnabled(env, Boolean(stdout.isTTY));
  const configPath = zotPaths(env).config;
  const saved = await readConfig(configPath); // a broken file is reported once the runtime reads it
  const chosenTheme = config.theme ?? (env.ZOT_THEME || undefined) ?? (typeof saved.theme === "string" ? saved.theme : undefined);
  // Without a chosen theme the default follows the terminal's background: ask it, briefly.
  const queryMs = Number(env.ZOT_BACKGROUND_QUERY_MS ?? 100);
  let background: "dark" | "light" | undefined;
  if (chosenTheme === undefined && color && queryMs > 0) {
    stdin.setRawMode(true);
    background = await queryBackground(stdin, stdout, queryMs);
  }
  // A built-in one until the theme bundles are known (they load with the extensions).
  const style = makeStyle(color, { theme: startTheme(chosenTheme, env, undefined, background).theme, depth: colourDepth(env) });
  // The markdown renderer (marked, highlight.js) loads only here, while extensions start.
  const markdown = import("./repl/markdown-setup.ts").then((m) => m.createMarkdownStream({ style, color, env }))
    .catch(() => undefined); // without it, answers stream as plain text
  const statusMs = Number(env.ZOT_RELOAD_STATUS_MS);
  const exitWindowMs = Number(env.ZOT_CTRL_C_EXIT_MS);
  const repl = new Repl({
    style,
    env,
    // How soon a second Ctrl+C exits; tests shorten it.
    ...(Number.isFinite(exitWindowMs) && exitWindowMs > 0 ? { exitWindowMs } : {}),
    // How long the /reload-ext status stays up; tests shorten it.
    ...(Number.isFinite(statusMs) && statusMs > 0 ? { reloadStatusMs: statusMs } : {}),
    out: {
      write: (text) => void stdout.write(text),
      columns: () => stdout.columns || 80,
      rows: () => stdout.rows || 24,
    },
  });

  // Keys are read from the start so Ctrl+C works while extensions are still starting.
  emitKeypressEvents(stdin, { escapeCodeTimeout: ESCAPE_TIMEOUT_MS } as unknown as Parameters<typeof emitKeypressEvents>[1]);
  stdin.setRawMode(true);
  stdout.write(BRACKETED_PASTE_ON);
  let starting = true;
  let interrupted = false;
  const trustQuestion = new TrustQuestion((lines) => repl.view.commitAside(lines), style);
  const paste = new PasteCollector();
  const onKey = (str: string | undefined, key: RawKey | undefined) => {
    const normalized = paste.feed(normalizeKey(str, key));
    if (!normalized) return;
    // The trust question can come at start or with a /cd into another project.
    if (trustQuestion.open) {
      trustQuestion.handle(normalized);
      if (!(starting && normalized.name === "ctrl-c")) return;
    }
    if (starting) {
      if (normalized.name === "ctrl-c") {
        interrupted = true;
        repl.exit(EXIT_INTERRUPTED);
      }
      return;
    }
    repl.handleKey(normalized);
  };
  const onSignal = () => {
    interrupted = true;
    repl.exit(EXIT_INTERRUPTED);
  };
  const onResize = () => repl.handleResize();
  stdin.on("keypress", onKey);
  stdin.resume();
  stdout.on("resize", onResize);
  process.on("SIGTERM", onSignal);
  process.on("SIGHUP", onSignal);

  // The REPL is the run's frontend: events and notes on its screen, questions asked on it.
  const frontend: Frontend = {
    showEvents: (bus) => bus.subscribe((event) => repl.onEvent(event)),
    warn: (message) => repl.warn(message),
    notice: (message) => repl.notice(message),
    confirm: repl.confirm.confirmer,
    askTrust: (pending) => trustQuestion.ask(pending),
    submit: (extension, text) => repl.submitFromExtension(extension, text),
  };
  let rt: Runtime | undefined;
  /** How to come back to this conversation, said once the terminal is tidy. */
  let resumeHint = "";
  try {
    try {
      rt = await createRuntime(config, { frontend, env, interactive: true });
    } catch (err) {
      if (err instanceof UsageError) throw err;
      repl.close();
      process.stderr.write(`zot: ${(err as Error).message}\n`);
      return EXIT_FAILURE;
    }
    starting = false;
    const { themes, problems } = availableThemes(rt.extensionReports());
    for (const problem of problems) repl.warn(problem);
    repl.themes = themes;
    const started = startTheme(chosenTheme, env, themes, background);
    style.setTheme(started.theme);
    if (started.warning) repl.warn(started.warning);
    const stream = await markdown;
    if (stream) repl.view.useMarkdown(stream);
    if (interrupted) {
      await rt.close({ abort: true });
      return EXIT_INTERRUPTED;
    }
    rt.session.start();
    const code = await repl.attach(rt, prompt);
    const saved = rt.session.state.session_file !== undefined && rt.session.messages.length > 0;
    if (saved) resumeHint = `Continue this conversation with zot -c (or zot --resume ${rt.session.sessionId}).\n`;
    await rt.close({ abort: true });
    return code;
  } finally {
    repl.close();
    stdin.off("keypress", onKey);
    stdout.off("resize", onResize);
    process.off("SIGTERM", onSignal);
    process.off("SIGHUP", onSignal);
    stdout.write(BRACKETED_PASTE_OFF);
    if (stdin.isTTY) stdin.setRawMode(false);
    stdin.pause();
    if (resumeHint) stdout.write(resumeHint);
  }
}
