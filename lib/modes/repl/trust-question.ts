// The REPL's one question per project: this folder's ./.zot/extensions run code the user has not
// trusted yet. Shown while extensions start (before the prompt exists), answered with y or n.
import type { PendingExtension } from "../../extensions/catalog/trust/host-trust.ts";
import { printableLine } from "../../terminal-text.ts";
import type { Key } from "./keys.ts";
import type { Style } from "./style.ts";

export class TrustQuestion {
  private answer: ((yes: boolean) => void) | undefined;

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
    lines.push("They run as programs on your machine. Trust this project and start them? [y/N]");
    this.show(lines);
    return new Promise((resolve) => {
      this.answer = (yes) => {
        this.answer = undefined;
        this.show([s.paint("muted", yes ? "Trusted; recorded for this project." : "Not trusted; its extensions stay off (`zot ext trust --project` trusts them later).")]);
        resolve(yes);
      };
    });
  }

  /** A key while the question is open: y accepts; n, Enter, Esc and Ctrl+C decline. */
  handle(key: Key): void {
    if (!this.answer) return;
    if (key.name === "rune" && /^y$/i.test(key.text ?? "")) this.answer(true);
    else if ((key.name === "rune" && /^n$/i.test(key.text ?? "")) || ["enter", "esc", "ctrl-c"].includes(key.name)) this.answer(false);
  }
}
