// The Gemini side of the scripted model server: `POST /v1beta/models/{model}:streamGenerateContent?alt=sse`
// answered as the Gemini Developer API streams (whole parts per chunk, thought signatures on parts,
// usageMetadata on the last chunk), its error bodies, and its models list (`GET /v1beta/models`).
import type { ReplyTurn, ScriptedToolCall } from "./model-server.ts";
import { chunksOf, usageOf, type Frame } from "./sse-frames.ts";

const GEMINI_STOPS: Record<string, string> = { end_turn: "STOP", tool_use: "STOP", max_tokens: "MAX_TOKENS" };

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED",
};

export function isGeminiPath(path: string): boolean {
  return /:streamGenerateContent$/.test(path);
}

/** The model id in `/v1beta/models/{model}:streamGenerateContent`. */
export function geminiModelOf(path: string): string {
  return decodeURIComponent(/\/models\/([^/]+):streamGenerateContent$/.exec(path)?.[1] ?? "scripted");
}

export function geminiErrorBody(status: number, message: string): object {
  return { error: { code: status, message, status: STATUS_NAMES[status] ?? (status >= 500 ? "INTERNAL" : "INVALID_ARGUMENT") } };
}

export function geminiStreamError(): string {
  return `data: ${JSON.stringify(geminiErrorBody(503, "The model is overloaded. Please try again later."))}\n\n`;
}

/** What Gemini answers a bad key with: a 400, not a 401. */
export function geminiRefusedKeyBody(): object {
  return { error: { code: 400, message: "API key not valid. Please pass a valid API key.", status: "INVALID_ARGUMENT",
    details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com" }] } };
}

export function geminiModelsBody(): object {
  return { models: [{ name: "models/gemini-3.8-flash", displayName: "Gemini 3.8 Flash", supportedGenerationMethods: ["generateContent"] }] };
}

/** Tool names offered in a request, and the 400 Gemini gives for one it cannot take (blaming it by name). */
export function geminiToolNames(body: any): string[] {
  return (body?.tools ?? []).flatMap((t: any) => (t.functionDeclarations ?? []).map((f: any) => f.name));
}

export function geminiRejectToolMessage(tool: string, index: number): string {
  return `* GenerateContentRequest.function_declarations[${index}].parameters: schema of function "${tool}" is not a valid JSON Schema object.`;
}

export function geminiFrames(turn: ReplyTurn, path: string): Frame[] {
  const frames: Frame[] = [];
  const usage = usageOf(turn);
  const modelVersion = geminiModelOf(path);
  const chunk = (parts: object[], extra: object = {}, delta = true) => frames.push({
    data: `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts }, index: 0, ...extra }], modelVersion, responseId: "scripted" })}\n\n`,
    delta,
  });
  if (turn.thinking !== undefined) {
    const pieces = chunksOf(turn.thinking);
    pieces.forEach((text, i) => chunk([{ text, thought: true, ...(i === pieces.length - 1 && turn.signature ? { thoughtSignature: turn.signature } : {}) }]));
  }
  if (turn.text !== undefined) {
    const pieces = chunksOf(turn.text);
    pieces.forEach((text, i) => chunk([{ text, ...(i === pieces.length - 1 && turn.text_signature ? { thoughtSignature: turn.text_signature } : {}) }]));
  }
  // Each call arrives whole in its own chunk; of parallel calls Gemini signs only the first.
  const calls = turn.tool_calls ?? [];
  for (const call of calls) chunk([functionCallPart(call)]);
  const stop = turn.stop ?? (calls.length ? "tool_use" : "end_turn");
  const prompt = usage.input + usage.cache_read;
  frames.push({
    data: `data: ${JSON.stringify({
      candidates: [{ content: { role: "model", parts: [{ text: "" }] }, finishReason: GEMINI_STOPS[stop] ?? stop, index: 0 }],
      usageMetadata: {
        promptTokenCount: prompt, candidatesTokenCount: usage.output, totalTokenCount: prompt + usage.output + usage.reasoning,
        ...(usage.cache_read ? { cachedContentTokenCount: usage.cache_read } : {}),
        ...(usage.reasoning ? { thoughtsTokenCount: usage.reasoning } : {}),
      },
      modelVersion,
    })}\n\n`,
    delta: false,
  });
  return frames;
}

function functionCallPart(call: ScriptedToolCall): object {
  const args = call.args_raw !== undefined ? { raw: call.args_raw } : call.args ?? {};
  return { functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args }, ...(call.signature ? { thoughtSignature: call.signature } : {}) };
}
