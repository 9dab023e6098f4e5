// The assistant message being assembled from a provider's stream. Providers add blocks as the
// wire announces them; the retry driver turns the draft into the final `done` message, whole
// on success or salvaged on failure.
import { isJsonObject } from "../protocol/json-object.ts";
import { modelInfo } from "./models.ts";
import { priceUsage, type TokenCounts } from "./usage.ts";
import type { AssistantContent, AssistantMessage, StopReason, TextBlock, ThinkingBlock, ToolCallBlock } from "./types.ts";

export class AssistantDraft {
  readonly content: AssistantContent[] = [];
  readonly tokens: TokenCounts = { input: 0, output: 0, cache_read: 0, cache_write: 0 };
  /** Set once the wire said the response is complete; until then the response is unfinished. */
  stop: StopReason | undefined;
  /** A reason to report with a completed response whose stop is `error` (e.g. a refusal). */
  stopError: string | undefined;
  private readonly rawArgs = new Map<ToolCallBlock, string>();

  constructor(readonly provider: string, readonly model: string) {}

  startText(text = ""): TextBlock {
    const block: TextBlock = { type: "text", text };
    this.content.push(block);
    return block;
  }

  startThinking(thinking = "", signature?: string): ThinkingBlock {
    const block: ThinkingBlock = { type: "thinking", thinking };
    if (signature) block.signature = signature;
    this.content.push(block);
    return block;
  }

  startToolCall(id: string, name: string): ToolCallBlock {
    const block: ToolCallBlock = { type: "tool_call", id, name, args: {} };
    this.content.push(block);
    this.rawArgs.set(block, "");
    return block;
  }

  appendArgs(block: ToolCallBlock, delta: string): void {
    this.rawArgs.set(block, (this.rawArgs.get(block) ?? "") + delta);
  }

  /** Argument text received so far for a tool call. */
  argsOf(block: ToolCallBlock): string {
    return this.rawArgs.get(block) ?? "";
  }

  hasToolCalls(): boolean {
    return this.rawArgs.size > 0;
  }

  /** The completed response. Tool-call arguments are parsed here, once they are whole. */
  finish(stop: StopReason): AssistantMessage {
    for (const [block, raw] of this.rawArgs) parseArgsInto(block, raw);
    const message = this.message(stop, this.content.filter(keepBlock));
    if (stop === "error") message.error = this.stopError ?? "the model stopped with an error";
    return message;
  }

  /**
   * A response that did not complete. It keeps the text and thinking received so far but no
   * tool calls: none of them will run, and a call without a result breaks the next request.
   */
  fail(stop: "error" | "aborted", error: string): AssistantMessage {
    const content = this.content.filter((b) => b.type !== "tool_call" && keepBlock(b));
    const message = this.message(stop, content);
    message.error = error;
    return message;
  }

  private message(stop: StopReason, content: AssistantContent[]): AssistantMessage {
    return {
      role: "assistant",
      content,
      stop,
      usage: priceUsage(this.tokens, modelInfo(this.provider, this.model)),
      provider: this.provider,
      model: this.model,
      timestamp: Date.now(),
    };
  }
}

/** Empty text and thinking carry nothing unless signed, and some APIs reject them. */
function keepBlock(block: AssistantContent): boolean {
  if (block.type === "text") return block.text.length > 0 || Boolean(block.signature);
  if (block.type === "thinking") return block.thinking.length > 0 || Boolean(block.signature);
  return true;
}

function parseArgsInto(block: ToolCallBlock, raw: string): void {
  if (raw.trim() === "") return;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isJsonObject(parsed)) {
      block.args = parsed;
      return;
    }
  } catch {
    // Fall through: the model sent something that is not JSON; keep it for the tool to report.
  }
  block.args = {};
  block.args_raw = raw;
}
