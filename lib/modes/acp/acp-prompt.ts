// An editor's prompt (ACP content blocks) as zot's user message: the text, the images, and each
// resource: an embedded one's text inline, a link as a line the model can follow with its tools.
import { fileURLToPath } from "node:url";
import type * as acp from "@agentclientprotocol/sdk";
import type { ImageBlock } from "../../providers/types.ts";

export interface UserPrompt {
  text: string;
  images: ImageBlock[];
}

const IMAGE_MIME = /^image\/(png|jpeg|gif|webp)$/;

/** A file:// URI as a path; any other URI as it is. */
function where(uri: string): string {
  try {
    return uri.startsWith("file://") ? fileURLToPath(uri) : uri;
  } catch {
    return uri;
  }
}

export function userPrompt(blocks: readonly acp.ContentBlock[]): UserPrompt {
  const parts: string[] = [];
  const images: ImageBlock[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
        break;
      case "image":
        images.push({ type: "image", mime_type: block.mimeType, data: block.data });
        break;
      case "resource_link":
        parts.push(`[${block.title ?? block.name}](${where(block.uri)})`);
        break;
      case "resource": {
        const resource = block.resource;
        if ("text" in resource) parts.push(`<context uri="${where(resource.uri)}">\n${resource.text}\n</context>`);
        else if (resource.mimeType && IMAGE_MIME.test(resource.mimeType)) images.push({ type: "image", mime_type: resource.mimeType, data: resource.blob });
        else parts.push(`[${where(resource.uri)}] (${resource.mimeType ?? "binary"} content not shown)`);
        break;
      }
      default:
        parts.push(`[${block.type} content is not supported]`);
    }
  }
  return { text: parts.join("\n\n"), images };
}
