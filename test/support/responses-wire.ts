// The OpenAI Responses API SSE events (`POST …/responses`) the scripted model server plays for
// a reply turn: reasoning items (summary deltas, then the encrypted item when the request
// includes `reasoning.encrypted_content`), message items, function_call items, and
// `response.completed` (or `response.incomplete` for a max_tokens stop) with usage.
import type { ReplyTurn } from "./model-server.ts";
import { chunksOf, sse, splitArgs, usageOf, type Frame } from "./sse-frames.ts";

export function isResponsesPath(path: string): boolean {
  return path.endsWith("/responses");
}

export function responsesFrames(turn: ReplyTurn, body: any, nextId: () => number): Frame[] {
  const frames: Frame[] = [];
  let sequence = 0;
  const event = (name: string, data: object, delta = false) =>
    frames.push({ data: sse(name, { type: name, sequence_number: sequence++, ...data }), delta });
  const responseId = `resp_${nextId()}`;
  const model = body?.model ?? "scripted";
  const response = (status: string, extra: object = {}) => ({
    id: responseId, object: "response", created_at: 1, model, status, output: [], error: null, incomplete_details: null, ...extra,
  });
  event("response.created", { response: response("in_progress") });
  let index = 0;
  const wantsEncrypted = Array.isArray(body?.include) && body.include.includes("reasoning.encrypted_content");

  if (turn.thinking !== undefined) {
    const id = turn.reasoning_id ?? `rs_${nextId()}`;
    const output_index = index++;
    event("response.output_item.added", { output_index, item: { id, type: "reasoning", summary: [] } });
    const parts = Array.isArray(turn.thinking) ? [turn.thinking.join("")] : [turn.thinking];
    parts.forEach((text, summary_index) => {
      event("response.reasoning_summary_part.added", { item_id: id, output_index, summary_index, part: { type: "summary_text", text: "" } });
      for (const delta of chunksOf(text)) event("response.reasoning_summary_text.delta", { item_id: id, output_index, summary_index, delta }, true);
      event("response.reasoning_summary_text.done", { item_id: id, output_index, summary_index, text });
      event("response.reasoning_summary_part.done", { item_id: id, output_index, summary_index, part: { type: "summary_text", text } });
    });
    const item: Record<string, unknown> = { id, type: "reasoning", summary: parts.map((text) => ({ type: "summary_text", text })) };
    if (wantsEncrypted) item.encrypted_content = turn.encrypted_reasoning ?? `enc-${id}`;
    event("response.output_item.done", { output_index, item });
  }
  if (turn.text !== undefined) {
    const id = `msg_${nextId()}`;
    const output_index = index++;
    const text = Array.isArray(turn.text) ? turn.text.join("") : turn.text;
    event("response.output_item.added", { output_index, item: { id, type: "message", role: "assistant", status: "in_progress", content: [] } });
    event("response.content_part.added", { item_id: id, output_index, content_index: 0, part: { type: "output_text", text: "", annotations: [] } });
    for (const delta of chunksOf(turn.text)) event("response.output_text.delta", { item_id: id, output_index, content_index: 0, delta, logprobs: [] }, true);
    event("response.output_text.done", { item_id: id, output_index, content_index: 0, text, logprobs: [] });
    const part = { type: "output_text", text, annotations: [] };
    event("response.content_part.done", { item_id: id, output_index, content_index: 0, part });
    event("response.output_item.done", { output_index, item: { id, type: "message", role: "assistant", status: "completed", content: [part] } });
  }
  for (const call of turn.tool_calls ?? []) {
    const id = `fc_${nextId()}`;
    const call_id = call.id ?? `call_${nextId()}`;
    const output_index = index++;
    const args = call.args_raw ?? JSON.stringify(call.args ?? {});
    event("response.output_item.added", { output_index, item: { id, type: "function_call", call_id, name: call.name, arguments: "", status: "in_progress" } });
    for (const delta of splitArgs(call)) event("response.function_call_arguments.delta", { item_id: id, output_index, delta }, true);
    event("response.function_call_arguments.done", { item_id: id, output_index, arguments: args });
    event("response.output_item.done", { output_index, item: { id, type: "function_call", call_id, name: call.name, arguments: args, status: "completed" } });
  }
  const u = usageOf(turn);
  const usage = {
    input_tokens: u.input + u.cache_read, input_tokens_details: { cached_tokens: u.cache_read },
    output_tokens: u.output, output_tokens_details: { reasoning_tokens: u.reasoning }, total_tokens: u.input + u.cache_read + u.output,
  };
  if (turn.stop === "max_tokens") {
    event("response.incomplete", { response: response("incomplete", { usage, incomplete_details: { reason: "max_output_tokens" } }) });
  } else event("response.completed", { response: response("completed", { usage }) });
  return frames;
}

export function responsesStreamError(): string {
  return sse("error", { type: "error", code: "server_error", message: "The server is overloaded", param: null, sequence_number: 0 });
}
