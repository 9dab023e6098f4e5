// The live progress line while the model works: an animated spinner, the time since the work
// began and the output tokens so far (the counted ones of finished steps, plus an estimate of
// the text still streaming at about four characters a token).
import type { ZotEvent } from "../../events/index.ts";

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** How often the line is redrawn while work runs. */
export const WORKING_TICK_MS = 100;

export class WorkingLine {
  private started = 0;
  private counted = 0;
  private streamedChars = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  /** Starts the clock (and a redraw every tick) when work begins, and stops it when work ends. */
  sync(working: boolean, redraw: () => void): void {
    if (working && !this.timer) {
      this.begin(Date.now());
      this.timer = setInterval(redraw, WORKING_TICK_MS);
      this.timer.unref?.();
    } else if (!working) this.stop();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Work begins: the clock and the count start over. */
  begin(now: number): void {
    this.started = now;
    this.counted = 0;
    this.streamedChars = 0;
  }

  onEvent(event: ZotEvent): void {
    switch (event.type) {
      case "text_delta":
      case "thinking_delta":
        this.streamedChars += event.delta.length;
        break;
      case "tool_use_args":
        this.streamedChars += event.delta.length;
        break;
      case "usage":
        // The step's real count replaces the estimate of what it streamed.
        this.counted += event.output;
        this.streamedChars = 0;
        break;
      default:
        break;
    }
  }

  get tokens(): number {
    return this.counted + Math.ceil(this.streamedChars / 4);
  }

  text(now: number, cancelHint: boolean): string {
    const elapsed = Math.max(0, now - this.started);
    const frame = SPINNER[Math.floor(elapsed / WORKING_TICK_MS) % SPINNER.length];
    const tokens = this.tokens;
    const parts = [`${frame} working… ${Math.floor(elapsed / 1000)}s`];
    if (tokens > 0) parts.push(`${tokens} token${tokens === 1 ? "" : "s"}`);
    if (cancelHint) parts.push("esc to cancel");
    return parts.join(" · ");
  }
}
