// How the REPL shows what a slash command came to: its output (or the status after /reload-ext),
// an extension's display or insert, a failure; a run it started is followed as a prompt's is, and
// /exit exits.
import type { RunResult } from "../../agent/contracts/loop-options.ts";
import type { SlashOutcome } from "../../app/slash.ts";
import type { EventView } from "./event-view.ts";
import type { InputLine } from "./input-line.ts";
import type { ReloadStatus } from "./reload-status.ts";
import type { Style } from "./style.ts";
import { sanitize } from "./text.ts";

export interface SlashOutcomeTarget {
  style: Style;
  view: EventView;
  input: InputLine;
  reloadStatus: ReloadStatus;
  columns: number;
  track(run: Promise<RunResult>): void;
  exit(code: number): void;
}

export function showSlashOutcome({ result, error }: SlashOutcome, to: SlashOutcomeTarget): void {
  const { style: s, view } = to;
  const errorRows = (text: string) => view.fit([sanitize(text)]).map((row) => s.paint("error", row));
  if (error) view.commitAside(errorRows(`[${error.extension}] error: ${error.message}`));
  switch (result.kind) {
    case "output":
      if (result.reload) to.reloadStatus.show(result.reload.failures, to.columns);
      else view.commitAside(view.fit(sanitize(result.text).split("\n")).map((line) => s.paint("text", line)));
      if (result.input !== undefined) to.input.insert(result.input);
      break;
    case "run":
      to.track(result.run);
      break;
    case "display":
      view.commitCommandOutput({ extension: result.extension, level: "display", text: result.text });
      break;
    case "insert":
      to.input.insert(result.text);
      break;
    case "failed":
      view.commitAside(errorRows(`zot: ${result.message}`));
      break;
    case "exit":
      to.exit(0);
      break;
    default:
      break;
  }
}
