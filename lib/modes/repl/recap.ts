// What a resumed conversation looks like when the REPL opens it (`zot -c`, `--resume ID`,
// `/resume`): its last turns as the transcript showed them, in short (the prompts, the answers'
// text, one line per tool call with how it ended), at most one screen, then a line naming the
// session with its age and size.
import { ageText } from "../../agent/session/session-family.ts";
import type { Message } from "../../providers/types.ts";
import { PROMPT } from "./live-frame.ts";
import type { Style } from "./style.ts";
import { sanitize, truncate } from "./text.ts";

export interface RecapOptions {
  style: Style;
  columns: number;
  rows: number;
  sessionId: string;
  /** The tool call's one-line preview, as the live view shows it. */
  preview(name: string, args: Record<string, unknown>): string;
  now?: number;
  /** The whole conversation, each answer's text as these rows (`zot sessions show` renders it as markdown), instead of its start. */
  answer?: (text: string) => string[];
}

/** Rows of one answer shown before it is cut. */
const ANSWER_ROWS = 6;

export function recapLines(messages: readonly Message[], o: RecapOptions): string[] {
  const s = o.style;
  const width = Math.max(20, o.columns - 1);
  const failed = new Set(messages.flatMap((m) => (m.role === "tool_result" && m.is_error ? [m.tool_id] : [])));
  const answered = new Set(messages.flatMap((m) => (m.role === "tool_result" ? [m.tool_id] : [])));
  const lines: string[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const text = message.content.map((b) => (b.type === "text" ? b.text : "[image]")).join(" ");
      const rows = rowsOfText(text);
      const shownRows = o.answer ? rows.length : 3;
      lines.push("", ...rows.slice(0, shownRows).map((row, i) => truncate(`${i === 0 ? s.bold(PROMPT) : " ".repeat(PROMPT.length)}${row}`, width)));
      if (rows.length > shownRows) lines.push(s.paint("muted", `  … ${rows.length - shownRows} more lines`));
    } else if (message.role === "assistant") {
      for (const block of message.content) {
        if (block.type === "text" && o.answer) {
          lines.push(...o.answer(block.text));
        } else if (block.type === "text") {
          const rows = rowsOfText(block.text).filter((r) => r.trim() !== "");
          lines.push(...rows.slice(0, ANSWER_ROWS).map((row) => truncate(row, width)));
          if (rows.length > ANSWER_ROWS) lines.push(s.paint("muted", `  … ${rows.length - ANSWER_ROWS} more lines`));
        } else if (block.type === "tool_call") {
          const mark = failed.has(block.id) ? s.paint("error", "✗") : answered.has(block.id) ? s.paint("success", "✓") : s.paint("warning", "⊘");
          lines.push(truncate(`${mark} ${block.name} ${sanitize(o.preview(block.name, block.args))}`, width));
        }
      }
      if (message.stop === "error" && message.error) lines.push(s.paint("error", truncate(`error: ${sanitize(message.error)}`, width)));
    }
  }
  // One screen: the last rows, with room left for the footer, the prompt and the status line.
  const room = o.answer ? Number.MAX_SAFE_INTEGER : Math.max(3, o.rows - 5);
  const shown = lines.length > room ? [s.paint("muted", "… earlier turns not shown"), ...lines.slice(lines.length - room + 1)] : lines;
  return [...shown, "", s.paint("muted", footer(messages, o))];
}

function footer(messages: readonly Message[], o: RecapOptions): string {
  const last = [...messages].reverse().find((m) => m.timestamp !== undefined)?.timestamp;
  const age = last !== undefined ? `, last message ${ageText((o.now ?? Date.now()) - last)}` : "";
  const count = messages.length;
  return `Resumed conversation ${o.sessionId}${age}, ${count} message${count === 1 ? "" : "s"}.`;
}

function rowsOfText(text: string): string[] {
  return text.replace(/\r\n?/g, "\n").split("\n").map(sanitize);
}
