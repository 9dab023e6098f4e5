// The status after /reload-ext: a green line when every extension loaded, else each load error
// in red with all its lines, dismissed after a while (five seconds unless told otherwise).
import type { Style } from "./style.ts";
import { sanitize, truncate } from "./text.ts";

export class ReloadStatus {
  lines: string[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly style: Style, private readonly showMs: number, private readonly changed: () => void) {}

  show(failures: Array<{ extension: string; message: string }>, columns: number): void {
    const s = this.style;
    const width = Math.max(20, columns - 1);
    this.lines = failures.length === 0
      ? [s.paint("success", "✓ extensions reloaded")]
      // A multi-line diagnostic keeps its line breaks: one row per line, continuations indented.
      : failures.flatMap((f) => sanitize(f.message).split("\n")
        .map((line, i) => s.paint("error", truncate(i === 0 ? `✗ ${f.extension}: ${line}` : `  ${line}`, width))));
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.lines = [];
      this.changed();
    }, this.showMs);
    this.timer.unref?.();
  }
}
