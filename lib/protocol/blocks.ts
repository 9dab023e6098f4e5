// Content blocks carried by tool results: text, or base64 images.
import * as v from "valibot";

export const TextBlockSchema = v.looseObject({
  type: v.literal("text"),
  text: v.string("text must be a string"),
});

export const ImageBlockSchema = v.looseObject({
  type: v.literal("image"),
  mime_type: v.string("mime_type must be a string"),
  data: v.string("data must be a base64 string"),
});

export const ContentBlockSchema = v.variant("type", [TextBlockSchema, ImageBlockSchema],
  'content blocks must have type "text" or "image"');

export const ContentSchema = v.array(ContentBlockSchema, "content must be an array of blocks");

export type ContentBlock = v.InferOutput<typeof ContentBlockSchema>;

/** Block types the host understands; an extension's other blocks are omitted, not fatal. */
export const SUPPORTED_BLOCK_TYPES: ReadonlySet<string> = new Set(["text", "image"]);

/**
 * `content` of an extension's tool_result: text and image blocks must be valid; blocks of any
 * other type pass validation so the host can omit them (and log it) and keep the rest.
 */
export const ExtensionContentSchema = v.array(v.variant("type", [
  TextBlockSchema,
  ImageBlockSchema,
  v.looseObject({ type: v.pipe(v.string(), v.check((type) => !SUPPORTED_BLOCK_TYPES.has(type))) }),
], "content blocks need a string type"), "content must be an array of blocks");

/** Splits validated extension content into the blocks the host keeps and the types it omits. */
export function splitSupportedBlocks(content: ReadonlyArray<{ type: string }>): { blocks: ContentBlock[]; unsupported: string[] } {
  const blocks: ContentBlock[] = [];
  const unsupported: string[] = [];
  for (const block of content) {
    if (SUPPORTED_BLOCK_TYPES.has(block.type)) blocks.push(block as ContentBlock);
    else unsupported.push(block.type);
  }
  return { blocks, unsupported };
}
