// Splits a stream of text into whole lines for progress reporting; a partial line waits for
// its newline (or the final flush). Overlong lines are cut so one line cannot flood a UI.

export class LineSplitter {
  private pending = "";

  constructor(private readonly emit: (line: string) => void, private readonly maxLineChars = 4096) {}

  push(text: string): void {
    this.pending += text;
    let nl = this.pending.indexOf("\n");
    while (nl !== -1) {
      this.send(this.pending.slice(0, nl));
      this.pending = this.pending.slice(nl + 1);
      nl = this.pending.indexOf("\n");
    }
    // Without a newline for a long time the buffer would grow unbounded: emit what we have.
    if (this.pending.length > this.maxLineChars) {
      this.send(this.pending);
      this.pending = "";
    }
  }

  flush(): void {
    if (this.pending) this.send(this.pending);
    this.pending = "";
  }

  private send(line: string): void {
    const clean = line.endsWith("\r") ? line.slice(0, -1) : line;
    this.emit(clean.length > this.maxLineChars ? `${clean.slice(0, this.maxLineChars)}…` : clean);
  }
}
