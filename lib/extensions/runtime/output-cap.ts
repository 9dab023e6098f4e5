// What the model gets of an extension's or an MCP server's tool result: at most `maxBytes` of
// text (50 KiB by default, as the built-in read and bash keep), the first bytes kept, and a
// closing note in brackets that says how much there was and how to raise the limit. Images pass
// as they are. The full result is never stored: a 2 MB file read through a server would
// otherwise be half a million tokens of the next request.
import { cutToBytes, formatBytes } from "../../tools/file-kind.ts";
import type { ToolContent, ToolOutcome } from "../../tools/types.ts";

export const DEFAULT_TOOL_OUTPUT_BYTES = 50 * 1024;

/** The variables that raise the limit: zot's own in bytes, and Claude Code's in tokens (about 4 bytes each). */
export const TOOL_OUTPUT_ENV = "ZOT_TOOL_OUTPUT_MAX_BYTES";
export const MCP_OUTPUT_TOKENS_ENV = "MAX_MCP_OUTPUT_TOKENS";

/** The limit from the environment (zot's variable first), or undefined when neither is a positive number. */
export function toolOutputLimitFromEnv(env: Record<string, string | undefined>): number | undefined {
  const bytes = Number(env[TOOL_OUTPUT_ENV]);
  if (Number.isInteger(bytes) && bytes > 0) return bytes;
  const tokens = Number(env[MCP_OUTPUT_TOKENS_ENV]);
  return Number.isInteger(tokens) && tokens > 0 ? tokens * 4 : undefined;
}

export function capToolOutput(outcome: ToolOutcome, maxBytes: number, source: string): ToolOutcome {
  const total = outcome.content.reduce((n, block) => n + (block.type === "text" ? Buffer.byteLength(block.text, "utf8") : 0), 0);
  if (total <= maxBytes) return outcome;
  let left = maxBytes;
  const content: ToolContent[] = [];
  for (const block of outcome.content) {
    if (block.type !== "text") {
      content.push(block);
      continue;
    }
    if (left <= 0) continue;
    const kept = cutToBytes(block.text, left);
    left -= Buffer.byteLength(kept, "utf8");
    content.push({ type: "text", text: kept });
  }
  content.push({ type: "text", text: `\n\n[${source} returned ${formatBytes(total)} of text; the first ${formatBytes(maxBytes)} are shown. `
    + `Ask it for less (a range, a filter), or raise the limit with ${TOOL_OUTPUT_ENV} (bytes).]` });
  return { ...outcome, content, details: { ...outcome.details, truncated: true, output_bytes: total } };
}
