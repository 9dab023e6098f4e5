// The REPL's controller: routes keys (confirmation first, then the focused panel, then the
// prompt line), submits prompts and slash commands, queues input while a turn runs, and
// decides when to exit. Rendering is EventView + buildFrame on a LiveScreen.
import type { RunResult } from "../../agent/contracts/loop-options.ts";
import { previewOf } from "../../agent/loop/tool-runner.ts";
import type { ZotEvent } from "../../events/index.ts";
import { BUILTIN_COMMANDS } from "../../app/builtin-commands.ts";
import type { Runtime } from "../../app/runtime.ts";
import { parseSlash, type SlashOutcome } from "../../app/slash.ts";
import { completeInput } from "./completion.ts";
import { ShellLines, shellCommandOf } from "./shell-line.ts";
import { showSlashOutcome } from "./slash-outcome.ts";
import { agentsStatus, idleStatus } from "./status-line.ts";
import { ConfirmQueue } from "./confirm.ts";
import { EventView } from "./event-view.ts";
import { ExitWindow } from "./exit-window.ts";
import { InputLine } from "./input-line.ts";
import { LoginFlow } from "./login-flow.ts";
import { loginHint } from "./login-prompt.ts";
import { panelKeyOf, type Key } from "./keys.ts";
import { buildFrame, oneLine, PROMPT } from "./live-frame.ts";
import { pickerFor, type OpenPicker } from "./pickers.ts";
import { literalText, unknownCommand } from "../../app/unknown-command.ts";
import { recapLines } from "./recap.ts";
import { ReloadStatus } from "./reload-status.ts";
import { BUILTIN_THEMES, type Theme } from "../../theme/themes.ts";
import { switchTheme, themePicker } from "./theme-command.ts";
import { WorkingLine } from "./working-line.ts";
import { LiveScreen, type TerminalOut } from "./screen.ts";
import type { Style } from "./style.ts";
import { sanitize } from "./text.ts";

interface TrackedRun {
  /** The prompt echoed into the transcript when this run starts (none for command-started runs). */
  echo?: string;
  started: boolean;
}

export interface ReplOptions {
  out: TerminalOut;
  style: Style;
  /** How long the status after /reload-ext stays up (default five seconds). */
  reloadStatusMs?: number;
  /** How soon a second Ctrl+C must follow the first to exit (default two seconds). */
  exitWindowMs?: number;
  /** Where /login looks for keys that take precedence over a saved one (default process.env). */
  env?: Record<string, string | undefined>;
}

const EXIT_WINDOW_MS = 2_000;

export class Repl {
  readonly confirm: ConfirmQueue;
  readonly view: EventView;
  private readonly screen: LiveScreen;
  private readonly input = new InputLine();
  private readonly runs: TrackedRun[] = [];
  private rt: Runtime | undefined;
  private hints: string[] = [];
  /** The idle status line (model, context, cost, extensions), refreshed when it may have changed. */
  private status: string[] = [];
  private readonly reloadStatus: ReloadStatus;
  /** A Ctrl+C just happened: a second one within the exit window, on an empty line, exits. */
  private readonly exitWindow: ExitWindow;
  private readonly login: LoginFlow;
  /** An open picker and the command its choice runs (`/resume ID`, `/model ID`). */
  private picker: OpenPicker | undefined;
  /** The progress line while work runs; it redraws the frame every tick. */
  private readonly working = new WorkingLine();
  /** What /theme offers: the built-in themes and the theme bundles'. */
  themes: readonly Theme[] = BUILTIN_THEMES;
  private exitCode: number | undefined;
  private resolveExit: ((code: number) => void) | undefined;
  private readonly exited: Promise<number>;
  /** `!command` lines: run now, their output goes to the model with the next prompt. */
  private readonly shell = new ShellLines({ cwd: () => this.rt!.cwd, pathDirs: () => this.rt!.host.pluginBins(),
    show: ({ output, failed }) => this.view.commitAside(sanitize(output || "(no output)").split("\n")
      .map((line) => this.o.style.paint(failed ? "error" : "tool_output", line))) });

  constructor(private readonly o: ReplOptions) {
    this.screen = new LiveScreen(o.out);
    this.confirm = new ConfirmQueue(() => {
      this.showPendingChange();
      this.render();
    });
    this.view = new EventView({
      style: o.style,
      columns: () => o.out.columns(),
      commit: (lines) => this.commitLines(lines),
      changed: () => this.render(),
      preview: (name, args) => this.previewOf(name, args),
    });
    this.exited = new Promise((resolve) => (this.resolveExit = resolve));
    this.login = new LoginFlow({
      style: o.style, env: o.env ?? process.env, runtime: () => this.rt!, commit: (lines) => this.view.commitAside(lines),
      render: () => this.render(), forget: (line) => this.input.forget(line),
    });
    this.reloadStatus = new ReloadStatus(o.style, o.reloadStatusMs ?? 5_000, () => this.render());
    this.exitWindow = new ExitWindow(o.exitWindowMs ?? EXIT_WINDOW_MS, () => this.render());
  }

  /** Takes over once the runtime is up: shows the prompt and pre-submits `initialPrompt`. */
  attach(rt: Runtime, initialPrompt?: string): Promise<number> {
    this.rt = rt;
    this.view.endLoad();
    const s = this.o.style;
    this.view.commitAside([s.paint("muted", `zot · ${rt.session.state.provider}/${rt.session.state.model} · /help for commands, Ctrl+D to exit`)]);
    if (rt.needsLogin()) this.view.commitAside([s.paint("warning", loginHint(rt.session.state.provider))]);
    if (rt.session.messages.length > 0) this.showRecap();
    this.status = idleStatus(rt);
    if (initialPrompt !== undefined && initialPrompt.trim() !== "") void this.submitLine(initialPrompt);
    this.render();
    return this.exited;
  }

  warn(message: string): void {
    this.view.commitAside([this.o.style.paint("warning", `zot: warning: ${message}`)]);
  }

  /** A dim line above the live area (provider SDK notices such as a deprecated model). */
  notice(message: string): void {
    this.view.commitAside([this.o.style.paint("muted", `zot: ${message}`)]);
  }

  onEvent(event: ZotEvent): void {
    this.working.onEvent(event);
    this.view.handle(event);
  }

  /** An extension's `submit`: queued like typed input. */
  submitFromExtension(extension: string, text: string): void {
    if (!this.rt || this.exitCode !== undefined || text.trim() === "") return;
    this.startPrompt(text, `${text} ${this.o.style.paint("muted", `(from ${extension})`)}`);
  }

  /** Requests exit; `attach`'s promise resolves with `code`. */
  exit(code: number): void {
    if (this.exitCode !== undefined) return;
    this.exitCode = code;
    this.exitWindow.disarm();
    this.confirm.cancelAll();
    this.render();
    this.resolveExit?.(code);
  }

  /** Leaves the terminal tidy: the live area erased, the cursor on a fresh line. */
  close(): void {
    this.working.stop();
    this.screen.close();
  }

  handleResize(): void {
    this.render();
  }

  get running(): boolean {
    return (this.rt?.session.running ?? false) || this.runs.length > 0 || this.shell.active;
  }

  handleKey(key: Key): void {
    if (!this.rt || this.exitCode !== undefined) return;
    const rt = this.rt;
    if (key.name !== "ctrl-c") this.exitWindow.disarm();
    this.hints = [];

    if (this.login.prompt) return this.login.handle(key);

    if (this.confirm.current) {
      if (key.name === "ctrl-c") this.cancel();
      else this.confirm.handle(key);
      return this.render();
    }

    if (this.picker) {
      const picked = this.picker.widget.handle(key);
      if (picked) {
        const { command } = this.picker;
        this.picker = undefined;
        if (picked.kind === "picked") void this.submitLine(`${command} ${picked.value}`);
      }
      return this.render();
    }

    const panel = this.view.focusedPanel;
    if (panel) {
      if (key.name === "esc" || key.name === "ctrl-c") rt.panels.close(panel.panelId);
      else {
        const mapped = panelKeyOf(key);
        if (mapped) rt.panels.key(panel.panelId, mapped.key, mapped.text);
      }
      return this.render();
    }

    switch (key.name) {
      case "ctrl-c":
        // The first cancels the running turn or clears the line; a second soon after, on an empty line, exits.
        if (this.exitWindow.open && !this.running && this.input.text === "") return this.exit(0);
        if (this.running) this.cancel();
        else this.input.clear();
        this.exitWindow.arm();
        break;
      case "esc":
        if (this.running) this.cancel();
        else this.view.clearNotes();
        break;
      case "ctrl-d":
        if (this.input.text === "") return this.exit(0);
        this.input.handle({ name: "delete" });
        break;
      case "tab":
        this.complete();
        break;
      case "ctrl-l":
        this.o.out.write("\x1b[2J\x1b[H");
        this.screen.close();
        break;
      default:
        if (this.input.handle(key) === "submit") {
          const line = this.input.take();
          void this.submitLine(line);
        }
    }
    this.render();
  }

  /** The diff of the call being confirmed goes to the transcript before its question. */
  private showPendingChange(): void {
    const request = this.confirm.current;
    if (request?.diff) this.view.showChange(request.toolId, request.toolName, request.toolArgs, request.diff);
  }

  /** Cancels the running turn; prompts queued behind it still run. */
  private cancel(): void {
    this.shell.stop();
    this.rt?.abort({ keepQueued: true });
  }

  private complete(): void {
    if (!this.rt) return;
    const commands = [
      ...BUILTIN_COMMANDS.map((c) => ({ name: c.name, source: "builtin" })),
      ...this.rt.commands().map((c) => ({ name: c.name, source: c.extension })),
    ];
    const done = completeInput(this.input.text, this.input.cursor, commands, this.rt.cwd);
    this.input.set(done.line);
    this.input.cursor = done.cursor;
    this.hints = done.candidates;
  }

  private async submitLine(raw: string): Promise<void> {
    const line = raw.trim();
    if (line === "" || !this.rt) return;
    this.view.clearNotes();
    const unknown = unknownCommand(this.rt, line, true);
    if (unknown) {
      // A typo costs nothing: the line stays in the input to be corrected.
      this.view.commitAside([this.o.style.paint("error", sanitize(`zot: ${unknown}`))]);
      this.input.set(line);
      return this.render();
    }
    const command = shellCommandOf(line);
    if (command !== undefined) {
      this.echoCommand(line);
      return void this.shell.run(command).finally(() => this.render());
    }
    if (!this.rt.isCommandLine(line)) return this.startPrompt(literalText(line) ?? line, line);
    const parsed = parseSlash(line);
    const name = parsed?.name.toLowerCase();
    if (name === "login") return this.login.start(line, parsed?.args ?? "");
    this.echoCommand(line);
    if (name === "theme" && parsed?.args) return this.switchTheme(parsed.args);
    const picker = parsed?.args !== "" ? undefined : name === "theme" ? themePicker(this.o.style, this.themes) : await pickerFor(name, this.rt);
    if (picker) {
      this.picker = picker;
      return this.render();
    }
    // A cwd change restarts extensions too: the new project's load errors replace the old ones
    // (a refused path restarts nothing, so the old ones come back).
    const reloads = name === "reload-ext" || (name === "cd" && parsed?.args !== "");
    const earlierLoadErrors = this.view.loadErrors;
    if (reloads) this.view.beginLoad();
    let outcome: SlashOutcome;
    try {
      outcome = await this.rt.slash(line, { interactive: true, columns: this.o.out.columns() });
    } catch (err) {
      this.view.commitAside([this.o.style.paint("error", `zot: ${(err as Error).message}`)]);
      return;
    } finally {
      if (reloads) this.view.endLoad();
    }
    if (name === "clear") {
      this.view.clearLoadErrors();
      // A fresh conversation gets a clear screen, as Ctrl+L gives.
      if (outcome.result.kind === "output") {
        this.o.out.write("\x1b[2J\x1b[3J\x1b[H");
        this.screen.close();
      }
    }
    if ((name === "resume" || name === "fork") && parsed?.args !== "" && outcome.result.kind === "output") this.showRecap();
    if (name === "cd" && outcome.result.kind === "failed") this.view.loadErrors = earlierLoadErrors;
    this.showSlash(outcome);
  }

  private async switchTheme(name: string): Promise<void> {
    const { ok, text } = await switchTheme(name, this.o.style, this.themes, this.rt!.paths.config);
    this.view.commitAside([ok ? this.o.style.paint("success", text) : this.o.style.paint("error", `zot: ${text}`)]);
    this.render();
  }

  /** The open conversation's last turns, as it is resumed. */
  private showRecap(): void {
    const rt = this.rt!;
    this.view.commitAside(recapLines(rt.session.messages, {
      style: this.o.style, columns: this.o.out.columns(), rows: this.o.out.rows(), sessionId: rt.session.sessionId,
      preview: (name, args) => this.previewOf(name, args),
    }));
  }

  private previewOf(name: string, args: Record<string, unknown>): string {
    const tool = this.rt?.session.tools().get(name);
    return tool ? previewOf(tool, args) : JSON.stringify(args);
  }

  private showSlash(outcome: SlashOutcome): void {
    showSlashOutcome(outcome, { style: this.o.style, view: this.view, input: this.input, reloadStatus: this.reloadStatus,
      columns: this.o.out.columns(), track: (run) => this.track(run, undefined), exit: (code) => this.exit(code) });
    if (this.rt) this.status = idleStatus(this.rt);
    this.render();
  }

  private startPrompt(text: string, echo: string): void {
    if (!this.rt) return;
    let run: Promise<RunResult>;
    try {
      const context = this.shell.take();
      run = this.rt.prompt(text, context.length ? { context } : {});
    } catch (err) {
      this.view.commit([this.o.style.paint("error", `zot: ${(err as Error).message}`)]);
      return;
    }
    this.track(run, echo);
  }

  /** Follows a run; its prompt is echoed when it reaches the front of the queue. */
  private track(run: Promise<RunResult>, echo: string | undefined): void {
    const entry: TrackedRun = { echo, started: false };
    this.runs.push(entry);
    if (this.runs.length === 1) this.begin(entry);
    this.render();
    void run
      .catch((err: Error) => this.view.commit([this.o.style.paint("error", `zot: ${err.message}`)]))
      .finally(() => {
        this.runs.splice(this.runs.indexOf(entry), 1);
        const next = this.runs[0];
        if (next && !next.started) this.begin(next);
        if (this.rt) this.status = idleStatus(this.rt);
        this.render();
      });
  }

  private begin(entry: TrackedRun): void {
    entry.started = true;
    if (entry.echo !== undefined) this.echo(entry.echo);
  }

  /** A command line (`!cmd`, `/name …`) as typed, above what it prints. */
  private echoCommand(line: string): void {
    this.view.commitAside(this.view.fit([`${this.o.style.bold(PROMPT)}${oneLine(line)}`]));
  }

  /** Echoes a prompt into the transcript; a multi-line prompt keeps its rows, indented under the first. */
  private echo(text: string): void {
    const indent = " ".repeat(PROMPT.length);
    const s = this.o.style;
    this.view.commit(this.view.fit(text.split("\n").map((row, i) => `${i === 0 ? s.bold(PROMPT) : indent}${row}`)).map((row) => s.paint("user", row)));
  }

  private commitLines(lines: string[]): void {
    this.screen.commit(lines, this.frame());
  }

  private render(): void {
    this.working.sync(this.running && this.exitCode === undefined, () => this.screen.render(this.frame()));
    this.screen.render(this.frame());
  }

  private frame() {
    const login = this.login.prompt;
    const hints = [...(login ? [login.checking ? "checking the key…" : login.problem ?? ""] : []), ...this.hints].filter((h) => h !== "");
    const input = login ? login.line : { text: this.input.text, cursor: this.input.cursor };
    if (this.exitWindow.open && !this.running && this.input.text === "" && !login) hints.push("Press Ctrl+C again to exit (or Ctrl+D).");
    return buildFrame({
      view: this.view,
      style: this.o.style,
      columns: this.o.out.columns(),
      rows: this.o.out.rows(),
      queued: this.runs.filter((r) => !r.started && r.echo !== undefined).map((r) => r.echo!),
      confirm: this.confirm.current,
      hints: [...this.reloadStatus.lines, ...hints, ...agentsStatus(this.rt?.agents?.running ?? 0)],
      ...(this.picker ? { picker: this.picker.widget.lines(this.o.style, this.o.out.columns(), this.o.out.rows()) } : {}),
      running: this.running,
      ...(this.status.length && !this.running && !this.picker && !this.confirm.current && !login ? { status: this.status } : {}),
      working: this.working.text(Date.now(), !this.view.focusedPanel),
      input: this.rt && this.exitCode === undefined ? input : undefined,
    });
  }
}
