// Our request → OpenAI Responses API parameters. Nothing is stored server-side (`store: false`),
// so reasoning travels as encrypted items: asked for with `include`, kept in the transcript and
// sent back in order with the rest of the history.
import type OpenAI from "openai";
import type { AssistantMessage, ImageBlock, Message, StreamRequest, ThinkingBlock, ToolResultMessage, UserMessage } from "./types.ts";

export type ResponsesParams = OpenAI.Responses.ResponseCreateParamsStreaming;
type InputItem = OpenAI.Responses.ResponseInputItem;
type ReasoningItem = OpenAI.Responses.ResponseReasoningItem;

/** What a ThinkingBlock's `signature` holds for an OpenAI reasoning item (JSON, prefixed). */
export interface StoredReasoning { id: string; encrypted_content: string; summary: string[] }

/** Marks a signature as an OpenAI reasoning item, so no other provider's format is mistaken for one. */
const REASONING_PREFIX = "openai-reasoning:";

export function encodeReasoning(item: StoredReasoning): string {
  return REASONING_PREFIX + JSON.stringify(item);
}

export function decodeReasoning(block: ThinkingBlock): StoredReasoning | undefined {
  if (!block.signature?.startsWith(REASONING_PREFIX)) return undefined;
  try {
    const item = JSON.parse(block.signature.slice(REASONING_PREFIX.length));
    return typeof item?.id === "string" && typeof item?.encrypted_content === "string" ? item : undefined;
  } catch {
    return undefined;
  }
}

export function toResponsesParams(request: StreamRequest): ResponsesParams {
  const params: ResponsesParams = {
    model: request.model,
    stream: true,
    store: false,
    include: ["reasoning.encrypted_content"],
    input: toResponsesInput(request.messages, request.model),
  };
  if (request.system) params.instructions = request.system;
  if (request.tools.length > 0) {
    params.tools = request.tools.map((tool) => ({
      type: "function", name: tool.name, description: tool.description, parameters: tool.schema, strict: false,
    }));
  }
  if (request.reasoning) params.reasoning = { effort: request.reasoning, summary: "auto" };
  if (request.maxTokens !== undefined) params.max_output_tokens = request.maxTokens;
  return params;
}

export function toResponsesInput(messages: Message[], model: string): InputItem[] {
  const out: InputItem[] = [];
  for (const message of messages) {
    if (message.role === "user") out.push(...userItems(message));
    else if (message.role === "assistant") out.push(...assistantItems(message, model));
    else out.push(toolOutput(message));
  }
  return out;
}

function userItems(message: UserMessage): InputItem[] {
  const content: OpenAI.Responses.ResponseInputContent[] = [];
  for (const block of message.content) {
    if (block.type === "text") {
      if (block.text) content.push({ type: "input_text", text: block.text });
    } else content.push(inputImage(block));
  }
  return content.length > 0 ? [{ role: "user", content }] : [];
}

/**
 * Reasoning goes back only to the OpenAI model that produced it (encrypted content is bound to
 * its model; after a switch of model it is left out rather than risk a refused request).
 */
function assistantItems(message: AssistantMessage, model: string): InputItem[] {
  const own = (message.provider ?? "openai") === "openai" && (message.model === undefined || message.model === model);
  const out: InputItem[] = [];
  for (const block of message.content) {
    if (block.type === "thinking") {
      const stored = own ? decodeReasoning(block) : undefined;
      if (!stored) continue;
      const item: ReasoningItem = {
        type: "reasoning", id: stored.id, encrypted_content: stored.encrypted_content,
        summary: stored.summary.map((text) => ({ type: "summary_text", text })),
      };
      out.push(item);
    } else if (block.type === "text") {
      if (block.text) out.push({ role: "assistant", content: block.text });
    } else {
      out.push({ type: "function_call", call_id: block.id, name: block.name, arguments: block.args_raw ?? JSON.stringify(block.args) });
    }
  }
  return out;
}

/** Function outputs take text and images as a list of input parts. */
function toolOutput(message: ToolResultMessage): InputItem {
  const hasImage = message.content.some((b) => b.type === "image");
  const text = message.content.flatMap((b) => (b.type === "text" && b.text ? [b.text] : [])).join("\n");
  if (!hasImage) return { type: "function_call_output", call_id: message.tool_id, output: text || "(no output)" };
  const output: OpenAI.Responses.ResponseFunctionCallOutputItemList = [];
  for (const block of message.content) {
    if (block.type === "text") {
      if (block.text) output.push({ type: "input_text", text: block.text });
    } else output.push({ type: "input_image", image_url: dataUrl(block), detail: "auto" });
  }
  return { type: "function_call_output", call_id: message.tool_id, output };
}

function inputImage(image: ImageBlock): OpenAI.Responses.ResponseInputImage {
  return { type: "input_image", image_url: dataUrl(image), detail: "auto" };
}

function dataUrl(image: ImageBlock): string {
  return `data:${image.mime_type};base64,${image.data}`;
}
