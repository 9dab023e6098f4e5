// Our request → Anthropic Messages parameters: message history (tool results as user turns,
// signed thinking sent back unchanged), tools, prompt-cache markers and thinking settings.
import type Anthropic from "@anthropic-ai/sdk";
import { modelInfo } from "./models.ts";
import type { AssistantMessage, ImageBlock, Message, ReasoningEffort, StreamRequest, ToolResultMessage, UserMessage } from "./types.ts";

type Params = Anthropic.MessageCreateParamsStreaming;
type ContentBlockParam = Anthropic.ContentBlockParam;
type MessageParam = Anthropic.MessageParam;

/** Output cap when the request names none: the model's limit, at most this. */
export const DEFAULT_MAX_TOKENS = 32_000;

/** Thinking-token budgets for models that take a budget rather than adaptive thinking. */
export const THINKING_BUDGETS: Record<ReasoningEffort, number> = { low: 2_048, medium: 8_192, high: 24_576 };

const MIN_THINKING_BUDGET = 1_024;
const EPHEMERAL = { type: "ephemeral" } as const;

export function toAnthropicParams(request: StreamRequest): Params {
  const info = modelInfo("anthropic", request.model);
  const maxTokens = request.maxTokens ?? Math.min(info.max_output ?? DEFAULT_MAX_TOKENS, DEFAULT_MAX_TOKENS);
  const params: Params = {
    model: request.model,
    max_tokens: maxTokens,
    stream: true,
    messages: toAnthropicMessages(request.messages, request.model),
  };
  // The system block's marker caches tools + system, which precede it in the cache prefix.
  if (request.system) params.system = [{ type: "text", text: request.system, cache_control: EPHEMERAL }];
  if (request.tools.length > 0) {
    params.tools = request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.schema as Anthropic.Tool.InputSchema,
    }));
  }
  if (request.reasoning) {
    if (info.thinking === "adaptive") {
      params.thinking = { type: "adaptive", display: "summarized" };
      params.output_config = { effort: request.reasoning };
    } else {
      const budget = Math.min(THINKING_BUDGETS[request.reasoning], maxTokens - MIN_THINKING_BUDGET);
      if (budget >= MIN_THINKING_BUDGET) params.thinking = { type: "enabled", budget_tokens: budget };
    }
  }
  return params;
}

/**
 * History as Anthropic turns. Consecutive tool results and user messages share one user turn
 * (tool results first, as the API requires); the last block gets a cache marker so the whole
 * conversation so far is cached for the next step.
 */
export function toAnthropicMessages(messages: Message[], model: string): MessageParam[] {
  const out: MessageParam[] = [];
  const pushUserBlocks = (blocks: ContentBlockParam[]) => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    if (last && last.role === "user" && Array.isArray(last.content)) {
      const toolResults = blocks.filter((b) => b.type === "tool_result");
      const others = blocks.filter((b) => b.type !== "tool_result");
      const existing = last.content;
      const firstOther = existing.findIndex((b) => b.type !== "tool_result");
      const at = firstOther === -1 ? existing.length : firstOther;
      last.content = [...existing.slice(0, at), ...toolResults, ...existing.slice(at), ...others];
    } else {
      out.push({ role: "user", content: blocks });
    }
  };
  for (const message of messages) {
    if (message.role === "user") pushUserBlocks(userBlocks(message));
    else if (message.role === "tool_result") pushUserBlocks([toolResultBlock(message)]);
    else {
      const blocks = assistantBlocks(message, model);
      if (blocks.length > 0) out.push({ role: "assistant", content: blocks });
    }
  }
  markLastBlockForCache(out);
  return out;
}

function userBlocks(message: UserMessage): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  for (const block of message.content) {
    if (block.type === "text") {
      if (block.text) blocks.push({ type: "text", text: block.text });
    } else blocks.push(imageBlock(block));
  }
  return blocks;
}

function toolResultBlock(message: ToolResultMessage): Anthropic.ToolResultBlockParam {
  const content: Array<Anthropic.TextBlockParam | Anthropic.ImageBlockParam> = [];
  for (const block of message.content) {
    if (block.type === "text") {
      if (block.text) content.push({ type: "text", text: block.text });
    } else content.push(imageBlock(block));
  }
  const result: Anthropic.ToolResultBlockParam = { type: "tool_result", tool_use_id: message.tool_id };
  if (content.length > 0) result.content = content;
  if (message.is_error) result.is_error = true;
  return result;
}

function imageBlock(block: ImageBlock): Anthropic.ImageBlockParam {
  return {
    type: "image",
    source: { type: "base64", media_type: block.mime_type as Anthropic.Base64ImageSource["media_type"], data: block.data },
  };
}

/**
 * Thinking is sent back only to the model that produced it, signed and unchanged: the API
 * rejects edited, unsigned or foreign thinking blocks.
 */
function assistantBlocks(message: AssistantMessage, model: string): ContentBlockParam[] {
  const ownThinking = (message.provider ?? "anthropic") === "anthropic" && (message.model === undefined || message.model === model);
  const blocks: ContentBlockParam[] = [];
  for (const block of message.content) {
    if (block.type === "text") {
      if (block.text) blocks.push({ type: "text", text: block.text });
    } else if (block.type === "thinking") {
      if (!ownThinking || !block.signature) continue;
      if (block.redacted) blocks.push({ type: "redacted_thinking", data: block.signature });
      else blocks.push({ type: "thinking", thinking: block.thinking, signature: block.signature });
    } else {
      blocks.push({ type: "tool_use", id: block.id, name: block.name, input: block.args_raw === undefined ? block.args : {} });
    }
  }
  return blocks;
}

function markLastBlockForCache(messages: MessageParam[]): void {
  const last = messages[messages.length - 1];
  if (!last || last.role !== "user" || !Array.isArray(last.content)) return;
  const block = last.content[last.content.length - 1];
  if (block && (block.type === "text" || block.type === "image" || block.type === "tool_result")) {
    block.cache_control = EPHEMERAL;
  }
}
