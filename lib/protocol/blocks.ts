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
