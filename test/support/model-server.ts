// A scripted model server on a loopback port. It speaks the Anthropic Messages
// (`POST …/messages`), OpenAI Chat Completions (`POST …/chat/completions`), OpenAI Responses
// (`POST …/responses`, see responses-wire.ts) and Gemini
// (`POST /v1beta/models/{model}:streamGenerateContent`, see gemini-wire.ts) streaming formats,
// plays a script of turns (one per request: a reply, an HTTP error or a connection reset) and
// records every request so tests can assert what the model was sent. `GET …/models` (both wires'
// models list, what `zot login` checks a key with) answers outside the script: it accepts the
// keys in `acceptKeys` (any non-empty key while that is unset) and refuses others with a 401.
//
// Standalone, for demos: `node_modules/.bin/bun test/support/model-server.ts script.json`
// prints the URL and serves until interrupted. script.json is an array of turns (or {"turns": […]}).
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  geminiErrorBody, geminiFrames, geminiModelsBody, geminiRefusedKeyBody, geminiRejectToolMessage, geminiStreamError,
  geminiToolNames, isGeminiPath,
} from "./gemini-wire.ts";
import { isResponsesPath, responsesFrames, responsesStreamError } from "./responses-wire.ts";
import { anthropicFrames, openaiFrames, sse, type Frame } from "./sse-frames.ts";

export interface ScriptedToolCall {
  /** Defaults to a fresh `toolu_N` / `call_N`. */
  id?: string;
  name: string;
  args?: Record<string, unknown>;
  /** Argument text sent verbatim instead of `args` (to send malformed JSON). */
  args_raw?: string;
  /** Pieces the argument text is streamed in (default 3). */
  chunks?: number;
  /** Gemini only: the function call part's `thoughtSignature`. */
  signature?: string;
}

export interface ReplyTurn {
  type?: "reply";
  /** A string is streamed word by word; an array gives the chunks. */
  text?: string | string[];
  thinking?: string | string[];
  /** Anthropic thinking signature (default `sig-<n>` when there is thinking); Gemini: on the last thought part. */
  signature?: string;
  /** Gemini only: the `thoughtSignature` of the last text part. */
  text_signature?: string;
  /** Anthropic only: a redacted_thinking block with this data, before any thinking. */
  redacted_thinking?: string;
  /** Responses only: the reasoning item's encrypted_content (default `enc-<its id>`) and id (default `rs_N`). */
  encrypted_reasoning?: string;
  reasoning_id?: string;
  /** OpenAI only: the delta field reasoning travels in (default `reasoning_content`). */
  reasoning_field?: "reasoning_content" | "reasoning";
  tool_calls?: ScriptedToolCall[];
  /** Anthropic stop reason (OpenAI: end_turn→stop, tool_use→tool_calls, max_tokens→length). */
  stop?: string;
  /** `reasoning`: Gemini's thoughtsTokenCount. */
  usage?: { input?: number; output?: number; cache_read?: number; cache_write?: number; reasoning?: number };
  /** Pause before each SSE event. */
  chunk_delay_ms?: number;
  /** Close the connection mid-response after this many content deltas. */
  die_after?: number;
  /** Stop sending after this many content deltas and keep the stream open until the client leaves. */
  hang_after?: number;
  /** Send a mid-stream error event (overloaded) after this many content deltas. */
  error_after?: number;
}

export interface ErrorTurn {
  type: "error";
  status: number;
  message?: string;
  /** `retry-after` header value (seconds or an HTTP date). */
  retry_after?: string | number;
  retry_after_ms?: number;
  headers?: Record<string, string>;
  /** Replaces the wire-format error body. */
  body?: unknown;
}

/** The connection is destroyed once the request has been read. */
export interface ResetTurn { type: "reset" }

/**
 * A provider refusing a tool it cannot accept: when the request offers `tool`, an HTTP 400
 * that blames it as that wire's provider does (Anthropic by its index in `tools`, OpenAI by
 * name); otherwise `otherwise` is played (default: a 400 saying the tool was missing).
 */
export interface RejectToolTurn { type: "reject_tool"; tool: string; otherwise?: ReplyTurn | ErrorTurn | ResetTurn }

export type StaticTurn = ReplyTurn | ErrorTurn | ResetTurn | RejectToolTurn;
export type Turn = StaticTurn | ((request: RecordedRequest) => StaticTurn | Promise<StaticTurn>);

export type Wire = "anthropic" | "openai" | "responses" | "gemini";

export type RequestOutcome = "completed" | "client_closed" | "reset";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON body (`undefined` when the body was not JSON). */
  body: any;
  wire: Wire | "unknown";
  /** How the exchange ended: answered in full, abandoned by the client, or reset by the script. */
  outcome: Promise<RequestOutcome>;
}

export interface ModelServer {
  /** `http://127.0.0.1:PORT`: the Anthropic base URL; OpenAI clients may use it or `${url}/v1`. */
  url: string;
  requests: RecordedRequest[];
  /** Turns not yet played. */
  readonly pending: number;
  push(...turns: Turn[]): void;
  /** The models `GET /api/tags` lists, as an Ollama server lists the ones it has pulled. */
  ollamaModels: string[];
  /** Keys the models list accepts; undefined: any non-empty key. */
  acceptKeys?: string[];
  close(): Promise<void>;
}

export async function startModelServer(script: Turn[] = []): Promise<ModelServer> {
  const turns = [...script];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let ids = 0;
  const nextId = () => ++ids;

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" }).end(String(err?.stack ?? err));
      else res.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? "/").split("?")[0];
    const wire = path.endsWith("/messages") ? "anthropic" : path.endsWith("/chat/completions") ? "openai"
      : isResponsesPath(path) ? "responses" : isGeminiPath(path) ? "gemini" : "unknown";
    let reset = false;
    const outcome = new Promise<RequestOutcome>((done) => {
      res.on("close", () => done(reset ? "reset" : res.writableFinished ? "completed" : "client_closed"));
    });
    const record: RecordedRequest = { method: req.method ?? "", path, headers: flatHeaders(req), body: parseJson(raw), wire, outcome };
    requests.push(record);
    if (req.method === "GET" && path === "/api/tags") {
      res.writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ models: api.ollamaModels.map((name) => ({ name, model: name, size: 1 })) }));
      return;
    }

    if (req.method === "GET" && path.endsWith("/models")) return sendModels(res, record, api.acceptKeys, req.url ?? "");
    if (wire === "unknown" || req.method !== "POST") {
      return sendError(res, wire, { type: "error", status: 404, message: `no such endpoint: ${req.method} ${path}` });
    }
    const next = turns.shift();
    if (!next) {
      return sendError(res, wire, { type: "error", status: 400, message: `model server script has no turn left for request #${requests.length}` });
    }
    const scripted = typeof next === "function" ? await next(record) : next;
    const turn = scripted.type === "reject_tool" ? rejectTool(scripted, record) : scripted;
    if (turn.type === "reset") {
      reset = true;
      req.socket.destroy();
      return;
    }
    if (turn.type === "error") return sendError(res, wire, turn);
    const frames = wire === "anthropic" ? anthropicFrames(turn, record.body, nextId)
      : wire === "gemini" ? geminiFrames(turn, path)
      : wire === "responses" ? responsesFrames(turn, record.body, nextId)
      : openaiFrames(turn, record.body, nextId);
    await play(res, turn, frames, wire, () => { reset = true; });
  }

  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const { port } = server.address() as AddressInfo;
  const api: ModelServer = {
    url: `http://127.0.0.1:${port}`,
    ollamaModels: [],
    requests,
    get pending() { return turns.length; },
    push: (...more) => { turns.push(...more); },
    close: () => new Promise<void>((done) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => done());
    }),
  };
  return api;
}

/**
 * The models list in the wire format the credentials name: `x-api-key` is Anthropic's (its list
 * is `{data, has_more, first_id, last_id}`), `x-goog-api-key` or `?key=` Gemini's (a bad key is a
 * 400 there), a bearer token OpenAI's (`{object: "list", data}`).
 */
function sendModels(res: ServerResponse, record: RecordedRequest, acceptKeys: string[] | undefined, url: string): void {
  const geminiKey = record.headers["x-goog-api-key"] ?? new URL(url, "http://x").searchParams.get("key") ?? undefined;
  if (geminiKey !== undefined) {
    record.wire = "gemini";
    const accepted = geminiKey !== "" && (acceptKeys === undefined || acceptKeys.includes(geminiKey));
    res.writeHead(accepted ? 200 : 400, { "content-type": "application/json" })
      .end(JSON.stringify(accepted ? geminiModelsBody() : geminiRefusedKeyBody()));
    return;
  }
  const anthropic = record.headers["x-api-key"] !== undefined;
  record.wire = anthropic ? "anthropic" : "openai";
  const key = anthropic ? record.headers["x-api-key"] : record.headers.authorization?.replace(/^Bearer\s+/i, "");
  const accepted = key !== undefined && key !== "" && (acceptKeys === undefined || acceptKeys.includes(key));
  if (!accepted) {
    const body = anthropic
      ? { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }
      : { error: { message: "Incorrect API key provided.", type: "invalid_request_error", param: null, code: "invalid_api_key" } };
    res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify(body));
    return;
  }
  const body = anthropic
    ? { data: [{ type: "model", id: "claude-sonnet-4-6", display_name: "Claude Sonnet 4.6", created_at: "2026-01-01T00:00:00Z" }],
      has_more: false, first_id: "claude-sonnet-4-6", last_id: "claude-sonnet-4-6" }
    : { object: "list", data: [{ id: "gpt-4.1", object: "model", created: 1, owned_by: "scripted" }] };
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
}

const DIE_FLUSH_MS = 30;

async function play(res: ServerResponse, turn: ReplyTurn, frames: Frame[], wire: Wire, markReset: () => void): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  let deltas = 0;
  for (const frame of frames) {
    if (res.destroyed) return;
    if (turn.chunk_delay_ms) await sleep(turn.chunk_delay_ms);
    if (frame.delta) {
      if (deltas === turn.die_after) {
        // Bun's server may still hold "written" events: give them a moment, then close (FIN, not
        // RST) so what was sent reaches the client before the failure on every runtime.
        markReset();
        await sleep(DIE_FLUSH_MS);
        res.socket?.end();
        return;
      }
      if (deltas === turn.hang_after) return; // the client's close settles `outcome`
      if (deltas === turn.error_after) {
        res.end(streamError(wire));
        return;
      }
      deltas++;
    }
    await writeFrame(res, frame.data);
  }
  res.end();
}

/** Resolves once the event reached the socket (so a scripted failure never swallows it) or the stream closed. */
function writeFrame(res: ServerResponse, data: string): Promise<void> {
  return new Promise((done) => {
    const onClose = () => done();
    res.once("close", onClose);
    res.write(data, () => {
      res.off("close", onClose);
      done();
    });
  });
}

function streamError(wire: Wire): string {
  if (wire === "gemini") return geminiStreamError();
  if (wire === "responses") return responsesStreamError();
  return wire === "anthropic"
    ? sse("error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } })
    : `data: ${JSON.stringify({ error: { message: "The server is overloaded", type: "server_error", code: null } })}\n\n`;
}

function sendError(res: ServerResponse, wire: RecordedRequest["wire"], turn: ErrorTurn): void {
  const message = turn.message ?? `scripted HTTP ${turn.status}`;
  const headers: Record<string, string> = { "content-type": "application/json", ...turn.headers };
  if (turn.retry_after !== undefined) headers["retry-after"] = String(turn.retry_after);
  if (turn.retry_after_ms !== undefined) headers["retry-after-ms"] = String(turn.retry_after_ms);
  const body = turn.body ?? (wire === "openai" || wire === "responses"
    ? { error: { message, type: openaiErrorType(turn.status), param: null, code: null } }
    : wire === "gemini" ? geminiErrorBody(turn.status, message)
    : { type: "error", error: { type: anthropicErrorType(turn.status), message } });
  res.writeHead(turn.status, headers).end(JSON.stringify(body));
}

function rejectTool(turn: RejectToolTurn, record: RecordedRequest): ReplyTurn | ErrorTurn | ResetTurn {
  const names: string[] = record.wire === "gemini" ? geminiToolNames(record.body)
    : (record.body?.tools ?? []).map((t: any) => (record.wire === "openai" ? t.function?.name : t.name));
  const openaiLike = record.wire === "openai" || record.wire === "responses";
  const index = names.indexOf(turn.tool);
  if (index < 0) return turn.otherwise ?? { type: "error", status: 400, message: `model server expected tool ${turn.tool} in the request` };
  const message = record.wire === "gemini" ? geminiRejectToolMessage(turn.tool, index) : openaiLike
    ? `Invalid schema for function '${turn.tool}': schema must be a JSON Schema of 'type: "object"', got 'type: "None"'.`
    : `tools.${index}.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12).`;
  return { type: "error", status: 400, message };
}

function anthropicErrorType(status: number): string {
  const types: Record<number, string> = {
    400: "invalid_request_error", 401: "authentication_error", 403: "permission_error", 404: "not_found_error",
    413: "request_too_large", 429: "rate_limit_error", 529: "overloaded_error",
  };
  return types[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
}

function openaiErrorType(status: number): string {
  if (status === 429) return "rate_limit_exceeded";
  return status >= 500 ? "server_error" : "invalid_request_error";
}

// ---- helpers ---------------------------------------------------------------------------------

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => done(Buffer.concat(parts).toString("utf8")));
    req.on("error", fail);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

async function runStandalone(scriptPath: string | undefined): Promise<void> {
  if (!scriptPath) {
    process.stderr.write("usage: bun test/support/model-server.ts script.json\n");
    process.exit(2);
  }
  const data = JSON.parse(readFileSync(scriptPath, "utf8"));
  const turns = Array.isArray(data) ? data : data?.turns;
  if (!Array.isArray(turns)) throw new Error(`${scriptPath}: expected an array of turns or {"turns": [...]}`);
  const server = await startModelServer(turns);
  process.stdout.write(`${server.url}\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runStandalone(process.argv[2]).catch((err) => {
    process.stderr.write(`model-server: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
