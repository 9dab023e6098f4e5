// Our request → Gemini generateContent parameters: history as user/model contents (tool results
// as functionResponse parts), thought signatures sent back on the parts that carried them, tools
// as function declarations with JSON Schema, and the reasoning effort as a thinking setting.
import { ThinkingLevel, type Content, type GenerateContentConfig, type GenerateContentParameters, type Part } from "@google/genai/web";
import type { AssistantMessage, ImageBlock, Message, ReasoningEffort, StreamRequest, ToolResultMessage, UserMessage } from "./types.ts";

/**
 * The placeholder Google documents for function calls Gemini did not produce (a `tool_prompt`
 * call zot recorded itself, a call from another provider's turn): Gemini 3 rejects an unsigned
 * function call in the current turn, and accepts this one in place of a signature.
 */
export const SKIP_SIGNATURE = "skip_thought_signature_validator";

/** Thinking-token budgets for models that take a budget (Gemini 2.x). */
export const GEMINI_THINKING_BUDGETS: Record<ReasoningEffort, number> = { low: 2_048, medium: 8_192, high: 24_576 };

const THINKING_LEVELS: Record<ReasoningEffort, ThinkingLevel> = { low: ThinkingLevel.LOW, medium: ThinkingLevel.MEDIUM, high: ThinkingLevel.HIGH };

/** Gemini 3 and later: thinking levels instead of budgets, and signatures validated on function calls. */
export function isGemini3(model: string): boolean {
  const major = /(?:^|\/)gemini-(\d+)/.exec(model)?.[1];
  return major !== undefined && Number(major) >= 3;
}

export function toGeminiParams(request: StreamRequest): GenerateContentParameters {
  const config: GenerateContentConfig = {};
  if (request.system) config.systemInstruction = { parts: [{ text: request.system }] };
  if (request.tools.length > 0) {
    config.tools = [{
      functionDeclarations: request.tools.map((tool) => ({
        name: tool.name, description: tool.description, parametersJsonSchema: tool.schema,
      })),
    }];
  }
  if (request.maxTokens !== undefined) config.maxOutputTokens = request.maxTokens;
  if (request.reasoning) {
    config.thinkingConfig = isGemini3(request.model)
      ? { includeThoughts: true, thinkingLevel: THINKING_LEVELS[request.reasoning] }
      : { includeThoughts: true, thinkingBudget: GEMINI_THINKING_BUDGETS[request.reasoning] };
  }
  return { model: request.model, contents: toGeminiContents(request.messages, request.model), config };
}

/** History as Gemini contents; consecutive user-side turns (tool results, prompts) share one content. */
export function toGeminiContents(messages: Message[], model: string): Content[] {
  const out: Content[] = [];
  const push = (role: "user" | "model", parts: Part[]) => {
    if (parts.length === 0) return;
    const last = out[out.length - 1];
    if (last && last.role === role && role === "user") last.parts!.push(...parts);
    else out.push({ role, parts });
  };
  for (const message of messages) {
    if (message.role === "user") push("user", userParts(message));
    else if (message.role === "tool_result") push("user", toolResultParts(message));
    else push("model", modelParts(message, model));
  }
  return out;
}

function userParts(message: UserMessage): Part[] {
  return message.content.flatMap((block): Part[] => {
    if (block.type === "image") return [imagePart(block)];
    return block.text ? [{ text: block.text }] : [];
  });
}

/** The result as a functionResponse; its images follow as inline parts, which every model reads. */
function toolResultParts(message: ToolResultMessage): Part[] {
  const text = message.content.flatMap((b) => (b.type === "text" && b.text ? [b.text] : [])).join("\n");
  const images = message.content.filter((b): b is ImageBlock => b.type === "image");
  const output = text || (images.length > 0 ? `(${images.length} image${images.length > 1 ? "s" : ""} attached)` : "(no output)");
  const response = message.is_error ? { error: output } : { output };
  return [{ functionResponse: { id: message.tool_id, name: message.tool_name, response } }, ...images.map(imagePart)];
}

/**
 * A model turn. Signatures travel only back to Gemini (another provider's thinking signature
 * means nothing here, and its thinking is dropped); an unsigned step's first function call gets
 * the documented placeholder on Gemini 3, where the API validates it.
 */
function modelParts(message: AssistantMessage, model: string): Part[] {
  const own = message.provider === undefined || message.provider === "gemini";
  const signed = (part: Part, signature: string | undefined): Part => (own && signature ? { ...part, thoughtSignature: signature } : part);
  const parts: Part[] = [];
  let callSigned = false;
  let firstCall: Part | undefined;
  for (const block of message.content) {
    if (block.type === "thinking") {
      if (own && block.signature && !block.redacted) parts.push({ text: block.thinking, thought: true, thoughtSignature: block.signature });
    } else if (block.type === "text") {
      if (block.text || (own && block.signature)) parts.push(signed({ text: block.text }, block.signature));
    } else {
      const args = block.args_raw === undefined ? block.args : {};
      const part = signed({ functionCall: { id: block.id, name: block.name, args } }, block.signature);
      if (part.thoughtSignature) callSigned = true;
      firstCall ??= part;
      parts.push(part);
    }
  }
  if (firstCall && !callSigned && isGemini3(model)) firstCall.thoughtSignature = SKIP_SIGNATURE;
  return parts;
}

function imagePart(image: ImageBlock): Part {
  return { inlineData: { mimeType: image.mime_type, data: image.data } };
}
