// Shapes shared by several json/rpc lines: the event vocabulary's blocks and usage (lib/events),
// loose for clients, and the field schemas the rpc responses use.
import { ImageDataBlockSchema as ImageData, StreamBlockSchema as Blocks, TextBlockSchema, ToolCallBlockSchema as ToolCall, ToolContentSchema as ToolContent, UsageSchema as Usage } from "../../events/index.ts";
import { loosely } from "./loose.ts";

export { args, count, int, time } from "../../events/index.ts";

export const StreamTextBlockSchema = loosely(TextBlockSchema);
/** An image with its base64 bytes (tool results in events, prompts with include_images). */
export const ImageDataBlockSchema = loosely(ImageData);
export const ToolCallBlockSchema = loosely(ToolCall);
/** A tool result's content as events carry it. */
export const ToolContentSchema = loosely(ToolContent);
/** The Go zot's block shapes: an image is its byte count. */
export const StreamBlockSchema = loosely(Blocks);
export const UsageSchema = loosely(Usage);
