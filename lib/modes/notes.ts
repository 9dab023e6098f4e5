// Extension notes and host warnings on stderr, for the modes whose stdout is not for people
// (print) or is a protocol stream (json, rpc: they also get the events on stdout).
import type { ZotEvent } from "../events/index.ts";
import { printable } from "../terminal-text.ts";

/** The stderr line for a note, an extension error or a host warning; what an extension wrote is printed as text. */
export function stderrNoteLine(event: ZotEvent): string | undefined {
  const line = noteLine(event);
  return line === undefined ? undefined : printable(line);
}

function noteLine(event: ZotEvent): string | undefined {
  switch (event.type) {
    case "ext_notify":
      return `[${event.extension}] ${event.level === "info" ? "" : `${event.level}: `}${event.message}`;
    case "ext_error":
      return `[${event.extension}] error: ${extErrorText(event)}`;
    case "error":
      return `zot: ${event.message}`;
    case "retry":
      return `zot: ${retryText(event)}`;
    default:
      return undefined;
  }
}

/** "model request failed (HTTP 529 …); retry 1 in 1.0 s", for the REPL and stderr. */
export function retryText(event: { attempt: number; delay_ms: number; message: string }): string {
  return `model request failed (${event.message}); retry ${event.attempt} in ${(event.delay_ms / 1000).toFixed(1)} s`;
}

/** An ext_error's text with its log path, named once (startup diagnostics already name it). */
export function extErrorText(event: { message: string; log_path?: string }): string {
  return event.log_path && !event.message.includes(event.log_path) ? `${event.message} (log: ${event.log_path})` : event.message;
}

/** Renders a panel as a framed block of text (title, lines, footer). */
export function renderPanelText(panel: { title?: string; lines?: string[]; footer?: string }): string {
  const body = panel.lines ?? [];
  const width = Math.max(panel.title?.length ?? 0, panel.footer?.length ?? 0, ...body.map((l) => l.length), 10);
  const rule = "─".repeat(width + 2);
  const row = (text: string) => `│ ${text.padEnd(width)} │`;
  return [`┌${rule}┐`, ...(panel.title ? [row(panel.title), `├${rule}┤`] : []), ...body.map(row),
    ...(panel.footer ? [`├${rule}┤`, row(panel.footer)] : []), `└${rule}┘`].join("\n");
}
