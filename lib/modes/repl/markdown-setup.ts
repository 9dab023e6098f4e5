// The REPL's markdown pipeline in one lazily imported module: everything that pulls in marked
// and highlight.js is reached from here, so other modes never load them.
import { hyperlinksSupported, MarkdownRenderer } from "./markdown.ts";
import { MarkdownStream } from "./markdown-stream.ts";
import type { Style } from "./style.ts";

export function createMarkdownStream(o: { style: Style; color: boolean; env: Record<string, string | undefined> }): MarkdownStream {
  return new MarkdownStream(new MarkdownRenderer({ style: o.style, color: o.color, hyperlinks: hyperlinksSupported(o.env) }));
}
