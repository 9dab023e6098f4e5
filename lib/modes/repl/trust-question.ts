// The REPL's one question per project: this folder's ./.zot/extensions run code the user has not
// trusted yet. Shown while extensions start (before the prompt exists), answered with a line that
// says yes or no: keys typed ahead for the prompt (`/login`, a question) answer nothing.
import type { PendingExtension } from "../../extensions/catalog/trust/host-trust.ts";
import { printableLine } from "../../terminal-text.ts";
import type { Key } from "./keys.ts";
import type { Style } from "./style.ts";

export class TrustQuestion {
  private answer: ((yes: boolean) => void) | undefined;
  /** What was typed since the question opened (or since the last line it did not take). */
  private typed = "";

  constructor(private readonly show: (lines: string[]) => void, private readonly style: Style) {}

  get open(): boolean {
    return this.answer !== undefined;
  }

  /** Shows the extensions and their permissions; resolves with the user's answer. */
  ask(pending: PendingExtension[]): Promise<boolean> {
    const s = this.style;
    const lines = [s.paint("warning", "This project has extensions in .zot/extensions that you have not trusted:")];
    for (const ext of pending) {
      // Everything here comes from the project: shown as text, never as terminal commands.
      lines.push(`  ${s.bold(printableLine(ext.name))}  ${s.paint("muted", printableLine(ext.dir))}`, ...ext.permissions.map((p) => `    ${printableLine(p)}`));
      if (ext.replaces) lines.push(`    ${s.paint("warning", printableLine(ext.replaces))}`);
    }
    lines.push("They run as programs on your machine. Trust this project and start them? Type yes or no, then Enter");
    this.show(lines);
    this.typed = "";
    return new Promise((resolve) => {
      this.answer = (yes) => {
        this.answer = undefined;
        this.show([s.paint("muted", yes ? "Trusted; recorded for this project." : "Not trusted; its extensions stay off (`zot ext trust --project` trusts them later).")]);
        resolve(yes);
      };
    });
  }

  /**
   * A key while the question is open: Enter answers with the line typed (y or yes accepts, n or no
   * declines, anything else asks again); Esc and Ctrl+C decline.
   */
  handle(key: Key): void {
    if (!this.answer) return;
    if (key.name === "esc" || key.name === "ctrl-c") return this.answer(false);
    if (key.name === "rune") this.typed += key.text ?? "";
    else if (key.name === "backspace") this.typed = this.typed.slice(0, -1);
    else if (key.name === "enter") {
      const line = this.typed.trim().toLowerCase();
      this.typed = "";
      if (line === "y" || line === "yes") this.answer(true);
      else if (line === "n" || line === "no") this.answer(false);
      else this.show([this.style.paint("warning", `Trust this project? Type yes or no, then Enter${line ? ` (not "${printableLine(line)}")` : ""}`)]);
    }
  }
}
