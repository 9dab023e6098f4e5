// A list the user picks one entry from in the REPL (`/resume` and `/model` without an argument):
// arrow keys (or Tab, PageUp/PageDown, Home/End) move, Enter picks, Esc or Ctrl+C cancels.
// Typing narrows the list to the entries containing the typed text.
import type { Key } from "./keys.ts";
import type { Style } from "./style.ts";
import { sanitize, truncate } from "./text.ts";

export interface PickerItem {
  /** What Enter hands back. */
  value: string;
  label: string;
  /** Dim text after the label (age, size, a note). */
  detail?: string;
  /** Shown dimmed (a deprecated model). */
  muted?: boolean;
}

export type PickerResult = { kind: "picked"; value: string } | { kind: "cancelled" } | undefined;

export class Picker {
  private index = 0;
  private filter = "";

  constructor(readonly title: string, private readonly items: PickerItem[], initial?: string) {
    const at = initial === undefined ? -1 : items.findIndex((i) => i.value === initial);
    if (at >= 0) this.index = at;
  }

  private get visible(): PickerItem[] {
    const f = this.filter.toLowerCase();
    return f === "" ? this.items : this.items.filter((i) => `${i.label} ${i.detail ?? ""}`.toLowerCase().includes(f));
  }

  handle(key: Key): PickerResult {
    const count = this.visible.length;
    const move = (to: number) => (this.index = count === 0 ? 0 : Math.min(count - 1, Math.max(0, to)));
    switch (key.name) {
      case "up": move(this.index - 1); break;
      case "down": case "tab": move(this.index + 1); break;
      case "pageup": move(this.index - 10); break;
      case "pagedown": move(this.index + 10); break;
      case "home": move(0); break;
      case "end": move(count - 1); break;
      case "esc": case "ctrl-c": return { kind: "cancelled" };
      case "enter": case "newline": {
        const item = this.visible[this.index];
        return item ? { kind: "picked", value: item.value } : undefined;
      }
      case "backspace": this.filter = this.filter.slice(0, -1); move(0); break;
      case "rune": case "paste": this.filter += key.text ?? ""; move(0); break;
      default: break;
    }
    return undefined;
  }

  /** The rows to show: the title, a window of entries around the selection, a key hint. */
  lines(style: Style, columns: number, rows: number): string[] {
    const width = Math.max(20, columns - 1);
    const visible = this.visible;
    const room = Math.max(3, Math.min(12, rows - 6));
    const start = Math.max(0, Math.min(this.index - Math.floor(room / 2), visible.length - room));
    const window = visible.slice(start, start + room);
    const out = [style.bold(truncate(sanitize(`${this.title}${this.filter ? ` · matching "${this.filter}"` : ""}`), width))];
    if (visible.length === 0) out.push(style.paint("muted", "  nothing matches"));
    window.forEach((item, i) => {
      const selected = start + i === this.index;
      const text = truncate(`${selected ? "›" : " "} ${sanitize(item.label)}${item.detail ? `  ${sanitize(item.detail)}` : ""}`, width);
      out.push(selected ? style.paint("selection", style.bold(text)) : item.muted ? style.paint("muted", text) : text);
    });
    const more = visible.length - window.length;
    out.push(style.paint("muted", truncate(`↑/↓ move · Enter choose · Esc cancel · type to filter${more > 0 ? ` · ${more} more` : ""}`, width)));
    return out;
  }
}
