// Byte and block budgets for tool content sent to extensions: `call_tool` results (256 KiB) and
// `tool_result` observations (256 KiB and 128 blocks). Text is cut at a UTF-8 character
// boundary; images that do not fit and unsupported block types are omitted. Any omission sets
// `truncated`. The tool's real result (for the model and the transcript) is never touched.
import type { ToolContent } from "../tools/types.ts";

export interface Bounded {
  content: ToolContent[];
  truncated: boolean;
}

/** The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes`. */
export function truncateUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  let cut = Math.max(0, maxBytes);
  // Back off over continuation bytes (10xxxxxx) so no character is split.
  while (cut > 0 && (bytes[cut]! & 0xc0) === 0x80) cut--;
  return bytes.subarray(0, cut).toString("utf8");
}

export function boundContent(content: readonly unknown[], maxBytes: number, maxBlocks = Infinity): Bounded {
  const out: ToolContent[] = [];
  let budget = maxBytes;
  let truncated = false;
  for (const block of content) {
    if (out.length >= maxBlocks) {
      truncated = true;
      break;
    }
    const b = block as Partial<Record<string, unknown>>;
    if (b?.type === "text" && typeof b.text === "string") {
      const size = Buffer.byteLength(b.text);
      if (size <= budget) {
        out.push({ type: "text", text: b.text });
        budget -= size;
      } else {
        truncated = true;
        if (budget > 0) {
          out.push({ type: "text", text: truncateUtf8(b.text, budget) });
          budget = 0;
        }
      }
    } else if (b?.type === "image" && typeof b.data === "string" && typeof b.mime_type === "string") {
      const size = Buffer.byteLength(b.data) + Buffer.byteLength(b.mime_type);
      if (size <= budget) {
        out.push({ type: "image", mime_type: b.mime_type, data: b.data });
        budget -= size;
      } else {
        truncated = true;
      }
    } else {
      truncated = true; // unsupported block type
    }
  }
  return { content: out, truncated };
}
