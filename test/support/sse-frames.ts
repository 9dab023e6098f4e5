// The Anthropic Messages and OpenAI Chat Completions SSE frames the scripted model server plays
// for a reply turn, and the helpers every wire shares (usage defaults, text and argument pieces).
import type { ReplyTurn, ScriptedToolCall } from "./model-server.ts";

/** One SSE event; `delta` marks content deltas, which `die_after` and friends count. */
export interface Frame { data: string; delta: boolean }

// ---- Anthropic Messages SSE ------------------------------------------------------------------

export function anthropicFrames(turn: ReplyTurn, body: any, nextId: () => number): Frame[] {
  const frames: Frame[] = [];
  const event = (name: string, data: object, delta = false) => frames.push({ data: sse(name, { type: name, ...data }), delta });
  const usage = usageOf(turn);
  const id = nextId();
  event("message_start", {
    message: {
      id: `msg_${id}`, type: "message", role: "assistant", model: body?.model ?? "scripted", content: [],
      stop_reason: null, stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: 1, cache_read_input_tokens: usage.cache_read, cache_creation_input_tokens: usage.cache_write },
    },
  });
  let index = 0;
  const block = (start: object, deltas: object[]) => {
    event("content_block_start", { index, content_block: start });
    for (const d of deltas) event("content_block_delta", { index, delta: d }, true);
    event("content_block_stop", { index });
    index++;
  };
  if (turn.redacted_thinking) block({ type: "redacted_thinking", data: turn.redacted_thinking }, []);
  if (turn.thinking !== undefined) {
    const pieces = chunksOf(turn.thinking).map((thinking) => ({ type: "thinking_delta", thinking }));
    block({ type: "thinking", thinking: "", signature: "" }, [...pieces, { type: "signature_delta", signature: turn.signature ?? `sig-${id}` }]);
  }
  if (turn.text !== undefined) block({ type: "text", text: "" }, chunksOf(turn.text).map((text) => ({ type: "text_delta", text })));
  for (const call of turn.tool_calls ?? []) {
    const pieces = splitArgs(call).map((partial_json) => ({ type: "input_json_delta", partial_json }));
    block({ type: "tool_use", id: call.id ?? `toolu_${nextId()}`, name: call.name, input: {} }, pieces);
  }
  const stop = turn.stop ?? (turn.tool_calls?.length ? "tool_use" : "end_turn");
  event("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output } });
  event("message_stop", {});
  return frames;
}

export function sse(name: string, data: object): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

// ---- OpenAI Chat Completions SSE -------------------------------------------------------------

export const OPENAI_STOPS: Record<string, string> = { end_turn: "stop", tool_use: "tool_calls", max_tokens: "length" };

export function openaiFrames(turn: ReplyTurn, body: any, nextId: () => number): Frame[] {
  const frames: Frame[] = [];
  const id = `chatcmpl-${nextId()}`;
  const model = body?.model ?? "scripted";
  const chunk = (choices: object[], extra: object = {}, delta = false) => frames.push({
    data: `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 1, model, choices, ...extra })}\n\n`,
    delta,
  });
  const deltaChunk = (delta: object, isDelta = true) => chunk([{ index: 0, delta, finish_reason: null }], {}, isDelta);
  deltaChunk({ role: "assistant", content: "" }, false);
  const field = turn.reasoning_field ?? "reasoning_content";
  if (turn.thinking !== undefined) for (const piece of chunksOf(turn.thinking)) deltaChunk({ [field]: piece });
  if (turn.text !== undefined) for (const piece of chunksOf(turn.text)) deltaChunk({ content: piece });
  (turn.tool_calls ?? []).forEach((call, index) => {
    deltaChunk({ tool_calls: [{ index, id: call.id ?? `call_${nextId()}`, type: "function", function: { name: call.name, arguments: "" } }] });
    for (const piece of splitArgs(call)) deltaChunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  const stop = turn.stop ?? (turn.tool_calls?.length ? "tool_use" : "end_turn");
  chunk([{ index: 0, delta: {}, finish_reason: OPENAI_STOPS[stop] ?? stop }]);
  if (body?.stream_options?.include_usage) {
    const usage = usageOf(turn);
    const prompt = usage.input + usage.cache_read;
    chunk([], {
      usage: {
        prompt_tokens: prompt, completion_tokens: usage.output, total_tokens: prompt + usage.output,
        prompt_tokens_details: { cached_tokens: usage.cache_read },
      },
    });
  }
  frames.push({ data: "data: [DONE]\n\n", delta: false });
  return frames;
}


export function usageOf(turn: ReplyTurn) {
  const u = turn.usage ?? {};
  return { input: u.input ?? 10, output: u.output ?? 20, cache_read: u.cache_read ?? 0, cache_write: u.cache_write ?? 0, reasoning: u.reasoning ?? 0 };
}

/** Word-by-word pieces ("Hello big world" → "Hello", " big", " world"); arrays pass through. */
export function chunksOf(text: string | string[]): string[] {
  if (Array.isArray(text)) return text;
  return text.match(/\s*\S+|\s+$/g) ?? (text ? [text] : []);
}

/** The argument text in `chunks` roughly equal pieces, so clients must join them. */
export function splitArgs(call: ScriptedToolCall): string[] {
  const text = call.args_raw ?? JSON.stringify(call.args ?? {});
  const count = Math.max(1, Math.min(call.chunks ?? 3, text.length));
  const size = Math.ceil(text.length / count);
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}
