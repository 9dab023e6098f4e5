// An extension panel as a framed block (title, lines, footer) fitted to the terminal: long
// lines are cut, and a panel taller than the room it has keeps its first rows plus a marker.
import type { Style } from "./style.ts";
import { displayWidth, sanitize, truncate } from "./text.ts";

export interface PanelModel {
  extension: string;
  panelId: string;
  title?: string;
  lines?: string[];
  footer?: string;
}

/** Frames `panel` in at most `maxRows` rows, each at most `columns` wide. */
export function renderPanel(panel: PanelModel, style: Style, columns: number, maxRows: number, focused: boolean): string[] {
  const inner = Math.max(10, columns - 4);
  const fit = (text: string) => truncate(sanitize(text), inner);
  const title = fit(panel.title ?? panel.panelId);
  const footer = panel.footer !== undefined ? fit(panel.footer) : undefined;
  let body = (panel.lines ?? []).map(fit);
  const chrome = 4 + (footer !== undefined ? 2 : 0);
  const room = Math.max(1, maxRows - chrome);
  if (body.length > room) body = [...body.slice(0, room - 1), `… ${body.length - room + 1} more lines`];
  const width = Math.min(inner, Math.max(displayWidth(title), footer !== undefined ? displayWidth(footer) : 0, ...body.map(displayWidth), 10));
  const frame = focused ? (s: string) => style.paint("panel_border", s) : (s: string) => style.paint("muted", s);
  const rule = "─".repeat(width + 2);
  const row = (text: string, styled: (s: string) => string = (s) => s) =>
    `${frame("│")} ${styled(text)}${" ".repeat(Math.max(0, width - displayWidth(text)))} ${frame("│")}`;
  return [
    frame(`┌${rule}┐`),
    row(title, (t) => style.bold(style.paint("panel_title", t))),
    frame(`├${rule}┤`),
    ...body.map((l) => row(l)),
    ...(footer !== undefined ? [frame(`├${rule}┤`), row(footer, (t) => style.paint("muted", t))] : []),
    frame(`└${rule}┘`),
  ];
}
