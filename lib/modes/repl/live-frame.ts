// Composes the live area from the REPL's state: streamed line, running tools and notes, open
// panels (the focused one in full), queued prompts, a pending confirmation, hints, a status
// line and the prompt line with the cursor. The frame never grows past the terminal's height.
import type { ConfirmRequest } from "../../agent/loop/permissions.ts";
import type { EventView } from "./event-view.ts";
import { renderPanel } from "./panel-view.ts";
import type { LiveFrame } from "./screen.ts";
import type { Style } from "./style.ts";
import { displayWidth, rowsOf, sanitize, truncate } from "./text.ts";
import { statusRows } from "./status-line.ts";

export const PROMPT = "› ";

export interface LiveState {
  view: EventView;
  style: Style;
  columns: number;
  rows: number;
  /** Prompts waiting behind the running one. */
  queued: string[];
  confirm?: ConfirmRequest;
  hints: string[];
  /** An open picker's rows (styled and cut to width already). */
  picker?: string[];
  running: boolean;
  /** The idle status line (model, context, cost, extensions), shown above the prompt when nothing runs. */
  status?: string[];
  /** The progress line while running (spinner, time, tokens). */
  working?: string;
  /** The prompt line; absent while zot is starting or exiting. `label` replaces the prompt sign (/login's questions). */
  input?: { text: string; cursor: number; label?: string };
}

export function buildFrame(state: LiveState): LiveFrame {
  const { view, style: s, columns } = state;
  const width = Math.max(20, columns - 1);
  const top = view.liveLines();
  const bottom: string[] = [];
  for (const text of state.queued) bottom.push(s.paint("muted", truncate(`queued: ${oneLine(text)}`, width)));
  if (state.confirm) {
    const c = state.confirm;
    const from = c.originExtension ? ` (from ${c.originExtension})` : "";
    bottom.push(s.paint("warning", truncate(`Allow ${c.toolName}${from}: ${sanitize(c.toolPreview)}`, width)));
    bottom.push(`${s.bold("y")} yes · ${s.bold("a")} always this tool · ${s.bold("s")} always this session · ${s.bold("n")} no`);
  }
  if (state.picker) bottom.push(...state.picker);
  for (const hint of state.hints) bottom.push(s.paint("muted", truncate(hint, width)));
  if (state.status && !state.running) bottom.push(...statusRows(state.status, width, truncate).map((row) => s.paint("muted", row)));
  const focused = view.focusedPanel;
  if (state.running && !state.confirm) {
    // The spinner (the line's first character) has a slot of its own.
    const text = truncate(state.working ?? "working…", width);
    bottom.push(state.working ? `${s.paint("spinner", text.slice(0, 1))}${s.paint("status", text.slice(1))}` : s.paint("status", text));
  }
  let cursor = { line: 0, column: 0 };
  const promptLines: string[] = [];
  if (state.input) {
    // A multi-line prompt (pasted, or Alt+Enter) continues on rows indented under the first.
    const label = state.input.label ?? PROMPT;
    const indent = " ".repeat(displayWidth(label));
    state.input.text.split("\n").forEach((row, i) => promptLines.push(`${i === 0 ? s.bold(label) : indent}${sanitize(row)}`));
    const before = state.input.text.slice(0, state.input.cursor).split("\n");
    cursor = { line: before.length - 1, column: displayWidth(label) + displayWidth(sanitize(before.at(-1) ?? "")) };
  }

  const panels: string[] = [];
  for (const panel of view.panels.values()) {
    if (panel !== focused) panels.push(s.paint("muted", truncate(`▸ ${panel.title ?? panel.panelId} [${panel.extension}]`, width)));
  }
  if (focused) {
    const used = [...top, ...bottom, ...promptLines, ...panels].reduce((n, l) => n + rowsOf(l, columns), 0);
    const room = Math.max(5, state.rows - 1 - used);
    panels.push(...renderPanel(focused, s, columns, room, true));
  }

  const lines = [...top, ...panels, ...bottom, ...promptLines];
  const cursorLine = state.confirm
    ? top.length + panels.length + state.queued.length + 1
    : promptLines.length > 0 ? lines.length - promptLines.length + cursor.line : lines.length - 1;
  if (state.confirm) cursor = { line: cursorLine, column: displayWidth(lines[cursorLine] ?? "") };
  else cursor = { line: Math.max(0, cursorLine), column: cursor.column };
  return fitHeight({ lines, cursor }, columns, state.rows);
}

/** Text on one row: line breaks shown as ⏎. */
export function oneLine(text: string): string {
  return sanitize(text.replace(/\r?\n/g, " ⏎ "));
}

/** Drops rows from the top until the frame fits the screen (the prompt is at the bottom). */
function fitHeight(frame: LiveFrame, columns: number, rows: number): LiveFrame {
  const lines = [...frame.lines];
  let line = frame.cursor.line;
  const total = () => lines.reduce((n, l) => n + rowsOf(l, columns), 0);
  while (lines.length > 1 && total() > rows - 1 && line > 0) {
    lines.shift();
    line -= 1;
  }
  return { lines, cursor: { line, column: frame.cursor.column } };
}
