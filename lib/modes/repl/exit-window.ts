// The REPL's double Ctrl+C: after one, a second within the window (on an empty line) exits.
// The window closes by itself, so a Ctrl+C long after the first warns again instead of exiting.

export class ExitWindow {
  private timer: ReturnType<typeof setTimeout> | undefined;
  open = false;

  /** `closed` is called when the window closes by itself (to redraw without the warning). */
  constructor(private readonly ms: number, private readonly closed: () => void) {}

  arm(): void {
    this.open = true;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.open = false;
      this.closed();
    }, this.ms);
    this.timer.unref?.();
  }

  disarm(): void {
    this.open = false;
    clearTimeout(this.timer);
  }
}
