// Our request → OpenAI Chat Completions parameters. Written for the lowest common denominator
// of OpenAI-compatible servers: string content where possible, no empty tool lists, and tool
// images in a user message because tool messages carry text only.
import type OpenAI from "openai";
import type { AssistantMessage, ImageBlock, Message, StreamRequest, ToolResultMessage, ToolSpec, UserMessage } from "./types.ts";

export type OpenAIParams = OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming;
type Params = OpenAIParams;
type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ContentPart = OpenAI.Chat.Completions.ChatCompletionContentPart;

export interface OpenAIParamsOptions {
  /**
   * Name of the output cap field: OpenAI's own API wants `max_completion_tokens` (reasoning
   * models reject `max_tokens`), while many compatible servers only know `max_tokens`.
   */
  maxTokensField: "max_completion_tokens" | "max_tokens";
  /**
   * Tools declared inside the conversation (Kimi K3's message-level tools) after the message at
   * each index of `request.messages`, instead of in the top-level list.
   */
  toolDeclarations?: ReadonlyMap<number, readonly ToolSpec[]>;
}

export function toOpenAIParams(request: StreamRequest, options: OpenAIParamsOptions): Params {
  const params: Params = {
    model: request.model,
    stream: true,
    stream_options: { include_usage: true },
    messages: toOpenAIMessages(request.system, request.messages, options.toolDeclarations),
  };
  const declared = new Set([...(options.toolDeclarations?.values() ?? [])].flat().map((tool) => tool.name));
  const topLevel = request.tools.filter((tool) => !declared.has(tool.name));
  if (topLevel.length > 0) params.tools = topLevel.map(functionTool);
  if (request.reasoning) params.reasoning_effort = request.reasoning;
  if (request.maxTokens !== undefined) params[options.maxTokensField] = request.maxTokens;
  return params;
}

/**
 * History as chat messages. Images from a run of tool results follow the run in one user
 * message, since nothing may come between an assistant's tool calls and their results.
 */
export function toOpenAIMessages(system: string, messages: Message[], declarations?: ReadonlyMap<number, readonly ToolSpec[]>): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (system) out.push({ role: "system", content: system });
  let pendingImages: { toolName: string; images: ImageBlock[] }[] = [];
  const flushImages = () => {
    if (pendingImages.length === 0) return;
    const parts: ContentPart[] = [];
    for (const { toolName, images } of pendingImages) {
      parts.push({ type: "text", text: `Image${images.length > 1 ? "s" : ""} returned by the ${toolName} tool:` });
      for (const image of images) parts.push(imagePart(image));
    }
    out.push({ role: "user", content: parts });
    pendingImages = [];
  };
  messages.forEach((message, index) => {
    if (message.role !== "tool_result") flushImages();
    if (message.role === "user") {
      const converted = userMessage(message);
      if (converted) out.push(converted);
    } else if (message.role === "assistant") {
      const converted = assistantMessage(message);
      if (converted) out.push(converted);
    } else {
      out.push(toolMessage(message));
      const images = message.content.filter((b): b is ImageBlock => b.type === "image");
      if (images.length > 0) pendingImages.push({ toolName: message.tool_name, images });
    }
    const declared = declarations?.get(index);
    if (declared?.length) {
      flushImages();
      // A content key (even null) makes Kimi reject the declaration.
      out.push({ role: "system", tools: declared.map(functionTool) } as unknown as ChatMessage);
    }
  });
  flushImages();
  return out;
}

function functionTool(tool: ToolSpec): OpenAI.Chat.Completions.ChatCompletionTool {
  return { type: "function", function: { name: tool.name, description: tool.description, parameters: tool.schema } };
}

function userMessage(message: UserMessage): ChatMessage | undefined {
  const hasImage = message.content.some((b) => b.type === "image");
  if (!hasImage) {
    const text = joinText(message.content);
    return text ? { role: "user", content: text } : undefined;
  }
  const parts: ContentPart[] = [];
  for (const block of message.content) {
    if (block.type === "text") {
      if (block.text) parts.push({ type: "text", text: block.text });
    } else parts.push(imagePart(block));
  }
  return { role: "user", content: parts };
}

/** Thinking stays out: compatible servers differ on whether (and how) reasoning may be sent back. */
function assistantMessage(message: AssistantMessage): ChatMessage | undefined {
  const text = joinText(message.content);
  const toolCalls = message.content.flatMap((block) => block.type === "tool_call"
    ? [{
      id: block.id,
      type: "function" as const,
      function: { name: block.name, arguments: block.args_raw ?? JSON.stringify(block.args) },
    }]
    : []);
  if (!text && toolCalls.length === 0) return undefined;
  const converted: OpenAI.Chat.Completions.ChatCompletionAssistantMessageParam = { role: "assistant", content: text || null };
  if (toolCalls.length > 0) converted.tool_calls = toolCalls;
  return converted;
}

function toolMessage(message: ToolResultMessage): ChatMessage {
  let text = joinText(message.content);
  const imageCount = message.content.filter((b) => b.type === "image").length;
  if (imageCount > 0) text += `${text ? "\n" : ""}(${imageCount} image${imageCount > 1 ? "s" : ""} attached in the next message)`;
  return { role: "tool", tool_call_id: message.tool_id, content: text || "(no output)" };
}

function imagePart(image: ImageBlock): ContentPart {
  return { type: "image_url", image_url: { url: `data:${image.mime_type};base64,${image.data}` } };
}

function joinText(blocks: ReadonlyArray<{ type: string; text?: string }>): string {
  return blocks.flatMap((b) => (b.type === "text" && b.text ? [b.text] : [])).join("\n");
}
