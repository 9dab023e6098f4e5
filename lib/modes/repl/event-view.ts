// Turns the event stream into what the REPL shows: streamed assistant text, one compact line
// per tool call, notes below the transcript, open panels. Finished lines are committed through
// `commit`; everything still changing is state the controller draws in the live area.
import type { ZotEvent } from "../../events/index.ts";
import { extErrorText, retryText } from "../notes.ts";
import { failureHint } from "./failure-hint.ts";
import { renderDiff } from "./diff-view.ts";
import type { MarkdownStream } from "./markdown-stream.ts";
import type { PanelModel } from "./panel-view.ts";
import type { Style } from "./style.ts";
import { sanitize, splitFullRows, truncate } from "./text.ts";
import { wrapStyled } from "./wrap.ts";
import { parseTruncationNote } from "../../tools/output-tail.ts";
import { ThinkingView } from "./thinking-view.ts";
import { formatUsageLine, type RunUsage } from "./usage-line.ts";

export interface Note {
  extension: string;
  level: "info" | "success" | "warn" | "error" | "display";
  text: string;
}

interface RunningTool {
  name: string;
  preview: string;
  progress?: string;
}

export interface EventViewOptions {
  style: Style;
  columns(): number;
  /** Writes finished lines to the transcript. */
  commit(lines: string[]): void;
  /** The live area changed. */
  changed(): void;
  /** One-line preview of a call (the tool's own, else its arguments). */
  preview(name: string, args: Record<string, unknown>): string;
}

const PREVIEW_WIDTH = 80;

export class EventView {
  /** The assistant line still being streamed (no newline yet). */
  partial = "";
  readonly tools = new Map<string, RunningTool>();
  notes: Note[] = [];
  /**
   * Failures of the last extension load (startup or /reload-ext). Unlike notes they stay until
   * a successful reload or /clear; they are never sent to the model or saved in the session.
   */
  loadErrors: Note[] = [];
  /** True while extensions load: their ext_error events are load errors, not notes. */
  private loading = true;
  /** Open panels; the last one has focus (the host's order). */
  readonly panels = new Map<string, PanelModel>();
  thinking = false;
  private readonly reasoning: ThinkingView;
  /** Tokens and cost of the run so far, summed over its `usage` events. */
  private runUsage: RunUsage = { input: 0, output: 0, cacheRead: 0, costUsd: 0 };
  private sessionCostUsd = 0;
  /** Renders the answer as markdown once set; until then (and in tests) text streams raw. */
  private markdown: MarkdownStream | undefined;
  /** Calls whose diff was shown before their confirmation, so it is not shown twice. */
  private readonly shownChanges = new Set<string>();

  constructor(private readonly o: EventViewOptions) {
    this.reasoning = new ThinkingView(o.style);
  }

  useMarkdown(stream: MarkdownStream): void {
    this.markdown = stream;
  }

  /** Shows the change a call is about to make (before its confirmation question). */
  showChange(toolId: string, toolName: string, args: Record<string, unknown>, diff: string): void {
    if (this.shownChanges.has(toolId)) return;
    this.shownChanges.add(toolId);
    const head = this.o.style.paint("warning", truncate(`? ${toolName} ${this.previewOf(toolName, args)}`, this.width()));
    this.commit([head, ...renderDiff(diff, this.o.style, this.o.columns())]);
  }

  get focusedPanel(): PanelModel | undefined {
    return [...this.panels.values()].at(-1);
  }

  addNote(note: Note): void {
    this.notes.push(note);
    this.o.changed();
  }

  clearNotes(extension?: string): void {
    const before = this.notes.length;
    this.notes = extension === undefined ? [] : this.notes.filter((n) => n.extension !== extension);
    if (this.notes.length !== before) this.o.changed();
  }

  /** A (re)load starts: its failures replace the previous load's. */
  beginLoad(): void {
    this.loading = true;
    this.clearLoadErrors();
  }

  endLoad(): void {
    this.loading = false;
  }

  clearLoadErrors(): void {
    if (this.loadErrors.length === 0) return;
    this.loadErrors = [];
    this.o.changed();
  }

  /** Commits lines after any half-streamed assistant line, keeping the transcript in order. */
  commit(lines: string[]): void {
    this.o.commit([...this.takePartial(), ...lines]);
  }

  /**
   * Commits lines that are not part of the model's output (a command and its output, warnings)
   * above the half-streamed assistant line, so that line is never split.
   */
  commitAside(lines: string[]): void {
    this.o.commit(lines);
  }

  /** Live lines for notes and running tools (the controller adds panels and the prompt). */
  liveLines(): string[] {
    const s = this.o.style;
    const width = Math.max(20, this.o.columns() - 1);
    const lines: string[] = [];
    if (this.partial !== "") lines.push(s.paint("assistant", this.partial));
    if (this.markdown?.active) lines.push(...this.markdown.liveLines(this.width()));
    if (this.reasoning.active) lines.push(...this.reasoning.liveLines(Math.max(20, this.o.columns())));
    else if (this.thinking && this.partial === "" && !this.markdown?.active) lines.push(s.paint("muted", "thinking…"));
    for (const tool of this.tools.values()) {
      const line = truncate(`⋯ ${tool.name} ${tool.preview}${tool.progress ? ` · ${tool.progress}` : ""}`, width);
      // The tool's own output (its last progress line) has a slot of its own.
      const cut = tool.progress ? line.lastIndexOf(" · ") : -1;
      lines.push(cut >= 0 ? `${s.paint("tool", line.slice(0, cut))}${s.paint("tool_output", line.slice(cut))}` : s.paint("tool", line));
    }
    for (const note of [...this.loadErrors, ...this.notes]) lines.push(...this.noteLines(note));
    return lines;
  }

  /** A note as lines: `[extension] text`, later lines indented, each wrapped at words to the width. */
  private noteLines(note: Note): string[] {
    const s = this.o.style;
    const label = note.level === "display" || note.level === "info" || note.level === "success" ? "" : `${note.level}: `;
    return sanitizeLines(note.text).flatMap((text, i) => (i === 0
      ? this.fit([`[${note.extension}] ${label}${text}`]).map((row) => s.level(note.level === "display" ? "info" : note.level, row))
      : this.fit([`  ${text}`])));
  }

  /** Lines of text wrapped at words to the terminal's width (a row past it would break mid-word), continuation rows indented as their line. */
  fit(lines: readonly string[]): string[] {
    const width = this.width();
    return lines.flatMap((line) => {
      // The line's own indent (a table row's) stays on every row; continuation rows go two further in.
      const indent = /^ */.exec(line)![0];
      return wrapStyled(line.slice(indent.length), width - indent.length, "  ").map((row) => `${indent}${row}`);
    });
  }

  /** An extension command's output, kept in the transcript as that command's (a live note would vanish at the next command). */
  commitCommandOutput(note: Note): void {
    this.commitAside(this.noteLines(note));
  }

  handle(event: ZotEvent): void {
    const s = this.o.style;
    switch (event.type) {
      case "text_delta":
        this.endThinking();
        this.stream(event.delta);
        break;
      case "thinking_delta":
        this.thinking = true;
        this.reasoning.append(event.delta);
        this.o.changed();
        break;
      case "usage":
        this.runUsage = {
          input: this.runUsage.input + event.input,
          output: this.runUsage.output + event.output,
          cacheRead: this.runUsage.cacheRead + event.cache_read,
          costUsd: this.runUsage.costUsd + event.cost_usd,
        };
        this.sessionCostUsd = event.cumulative.cost_usd;
        break;
      case "tool_call":
        this.endThinking();
        this.commit([]);
        this.tools.set(event.tool_id, { name: event.tool_name, preview: this.previewOf(event.tool_name, event.tool_args ?? {}) });
        this.o.changed();
        break;
      case "tool_progress": {
        const tool = this.tools.get(event.tool_id);
        const last = sanitizeLines(event.text).filter((l) => l.trim() !== "").at(-1);
        if (tool && last !== undefined) {
          tool.progress = last;
          this.o.changed();
        }
        break;
      }
      case "tool_result": {
        const running = this.tools.get(event.tool_id);
        this.tools.delete(event.tool_id);
        const preview = running?.preview ?? this.previewOf(event.tool_name, event.tool_args ?? {});
        const mark = event.status === "completed" ? s.paint("success", "✓") : event.status === "failed" ? s.paint("error", "✗") : s.paint("warning", "⊘");
        const text = event.result.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
        const first = sanitizeLines(text).find((l) => l.trim() !== "") ?? "";
        const summary = event.status === "completed" ? resultSummary(event.tool_name, event.tool_args, text, event.result.truncated) : first;
        // A summary that has its own parentheses ("(no output)") is not wrapped in more.
        const said = summary.replace(/^\((.*)\)$/, "$1");
        const line = truncate(`${mark} ${event.tool_name} ${preview} → ${event.status}${said ? ` (${said})` : ""}`, this.width());
        const shown = this.shownChanges.delete(event.tool_id);
        const diff = event.status === "completed" && !shown && event.result.diff ? renderDiff(event.result.diff, s, this.o.columns()) : [];
        this.commit([line, ...diff]);
        break;
      }
      case "turn_end":
        this.endThinking();
        this.commit([]);
        break;
      case "subagent_start":
        this.o.changed(); // the status line counts running agents
        break;
      case "subagent_stop":
        this.commitAside([s.paint("muted", `agent ${event.agent_id} ${event.status}${event.error ? `: ${event.error}` : ""} (/agents show ${event.agent_id})`)]);
        break;
      case "ext_notify":
        this.addNote({ extension: event.extension, level: event.level, text: event.message });
        break;
      case "ext_display":
        this.addNote({ extension: event.extension, level: "display", text: event.text });
        break;
      case "ext_clear_notes":
        this.clearNotes(event.extension);
        break;
      case "ext_error": {
        const note: Note = { extension: event.extension, level: "error", text: extErrorText(event) };
        if (this.loading) {
          this.loadErrors.push(note);
          this.o.changed();
        } else this.addNote(note);
        break;
      }
      case "ext_panel_open":
      case "ext_panel_render": {
        const { type: _type, panel_id: panelId, ...fields } = event;
        const panel: PanelModel = { ...fields, panelId };
        const prev = this.panels.get(event.panel_id);
        // A render keeps fields it does not resend; an open (re)focuses by moving to the end.
        if (event.type === "ext_panel_open") this.panels.delete(event.panel_id);
        this.panels.set(event.panel_id, event.type === "ext_panel_render" && prev ? { ...prev, ...panel } : panel);
        this.o.changed();
        break;
      }
      case "ext_panel_close":
        if (this.panels.delete(event.panel_id)) this.o.changed();
        break;
      case "error":
        this.commit([s.paint("error", `zot: ${event.message}`)]);
        break;
      case "retry":
        this.commit([s.paint("warning", `↻ ${retryText(event)}`)]);
        break;
      case "post_compact":
        if (event.status !== "completed") this.commit([s.paint("warning", `compaction ${event.status}${event.error ? `: ${event.error}` : ""}`)]);
        break;
      case "done":
        this.endThinking();
        this.tools.clear();
        if (event.stop === "aborted") this.commit([s.paint("warning", "⊘ cancelled")]);
        else if (event.stop === "error") {
          const hint = failureHint(event.error ?? "");
          this.commit([s.paint("error", `✗ ${event.error ?? "the run failed"}`), ...(hint ? [s.paint("muted", hint)] : [])]);
        }
        else if (event.stop === "blocked") this.commit([s.paint("error", `⊘ blocked: ${event.error ?? "the turn was blocked"}`)]);
        else this.commit([]);
        this.commitUsage();
        this.o.changed();
        break;
      default:
        break;
    }
  }

  /** Collapses streamed reasoning into its summary line once the answer (or the turn's end) arrives. */
  private endThinking(): void {
    this.thinking = false;
    const summary = this.reasoning.collapse();
    if (summary.length > 0) this.commit(summary);
  }

  /** The run's usage line, once per run; nothing when no tokens were reported. */
  private commitUsage(): void {
    const line = formatUsageLine(this.runUsage, this.sessionCostUsd);
    this.runUsage = { input: 0, output: 0, cacheRead: 0, costUsd: 0 };
    if (line !== "") this.commit([this.o.style.paint("muted", line)]);
  }

  private width(): number {
    return Math.max(20, this.o.columns() - 1);
  }

  private stream(delta: string): void {
    if (this.markdown) {
      const rows = this.markdown.append(sanitizeKeepingLines(delta), this.width());
      if (rows.length > 0) this.o.commit(rows);
      else this.o.changed();
      return;
    }
    const parts = (this.partial + delta).split("\n");
    const rest = sanitize(parts.pop() ?? "");
    const full = parts.map(sanitize);
    // A line longer than the terminal is committed row by row so the live area stays small.
    const split = splitFullRows(rest, Math.max(20, this.o.columns()));
    this.partial = split.rest;
    // The answer as plain text (no markdown renderer) is drawn in the assistant's slot.
    const done = [...full, ...split.rows].map((row) => this.o.style.paint("assistant", row));
    if (done.length > 0) this.o.commit(done);
    else this.o.changed();
  }

  private takePartial(): string[] {
    if (this.markdown?.active) return this.markdown.finish(this.width());
    this.markdown?.finish(this.width());
    if (this.partial === "") return [];
    const line = this.partial;
    this.partial = "";
    return [this.o.style.paint("assistant", line)];
  }

  private previewOf(name: string, args: Record<string, unknown>): string {
    let text: string;
    try {
      text = this.o.preview(name, args);
    } catch {
      text = JSON.stringify(args);
    }
    return truncate(sanitize(text.replace(/\s*\n\s*/g, " ")), PREVIEW_WIDTH);
  }
}

/**
 * A completed call's size on its result line: the lines a write put in the file, the lines of
 * output the model got, and when the output was cut, how much of it.
 */
function resultSummary(tool: string, args: Record<string, unknown> | undefined, text: string, truncated?: boolean): string {
  const plural = (n: number) => `${n} line${n === 1 ? "" : "s"}`;
  if (tool === "write" && typeof args?.content === "string") return plural(lineCount(args.content));
  const cut = parseTruncationNote(text);
  if (cut) return `${cut.shown} of ${cut.total} lines shown to the model`;
  const shown = plural(text.split("\n").filter((l) => l !== "").length);
  return truncated ? `${shown}, cut for the model` : shown;
}

/** Lines of a file's text: a final line break ends the last line rather than starting one. */
function lineCount(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

function sanitizeLines(text: string): string[] {
  return text.split("\n").map(sanitize);
}

/** Streamed text without cursor-moving controls, its line breaks kept for the markdown lexer. */
function sanitizeKeepingLines(text: string): string {
  return sanitizeLines(text.replace(/\r\n?/g, "\n")).join("\n");
}
