// Compaction: older messages are summarised by the model and replaced by that summary; recent
// messages stay verbatim. The cut never separates a tool call from its result (the first kept
// message is never a tool result). Failure is data: the outcome carries a status.
import { estimateTokens } from "./tokens.ts";
import type { Message, Provider, UserMessage } from "../../providers/types.ts";
import type { RunStatus } from "../../events/index.ts";

export interface CompactionSettings {
  /** Fraction of the context window at which compaction runs before the next model step. */
  threshold: number;
  /** Estimated tokens of recent messages kept verbatim (capped at half the transcript). */
  keepRecentTokens: number;
  /** How long the summary request may take. */
  timeoutMs: number;
}

export const DEFAULT_COMPACTION: CompactionSettings = { threshold: 0.85, keepRecentTokens: 20_000, timeoutMs: 120_000 };

export const SUMMARY_PREFIX = "[Summary of the earlier conversation, compacted to save context]";

export type CompactionOutcome =
  | { status: "completed"; messages: Message[]; summary?: UserMessage; summaryText?: string; kept: number }
  | { status: Exclude<RunStatus, "completed">; error: string };

export interface CompactRequest {
  provider: Provider;
  model: string;
  messages: readonly Message[];
  keepRecentTokens: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Index of the first message kept verbatim: the earliest point (after at least one message)
 * whose tail fits `keepTokens`, moved so no tool result is separated from its call. Returns 0
 * when nothing can be summarised.
 */
export function chooseCut(messages: readonly Message[], keepTokens: number): number {
  const candidates: number[] = [];
  for (let i = 1; i < messages.length; i++) if (messages[i]!.role !== "tool_result") candidates.push(i);
  if (candidates.length === 0) return messages.length > 1 ? messages.length : 0;
  for (const index of candidates) {
    if (estimateTokens(messages.slice(index)) <= keepTokens) return index;
  }
  return candidates[candidates.length - 1]!;
}

export async function compactTranscript(request: CompactRequest): Promise<CompactionOutcome> {
  const { messages } = request;
  const keep = Math.min(request.keepRecentTokens, Math.floor(estimateTokens(messages) / 2));
  const cut = chooseCut(messages, keep);
  if (cut === 0) return { status: "completed", messages: [...messages], kept: messages.length };

  const summary = await summarize(request, messages.slice(0, cut));
  if (!summary.ok) return { status: summary.status, error: summary.error };
  const message: UserMessage = { role: "user", content: [{ type: "text", text: `${SUMMARY_PREFIX}\n\n${summary.text}` }], timestamp: Date.now() };
  const kept = messages.slice(cut);
  return { status: "completed", messages: [message, ...kept], summary: message, summaryText: summary.text, kept: kept.length };
}

type SummaryResult = { ok: true; text: string } | { ok: false; status: "failed" | "cancelled" | "timed_out"; error: string };

async function summarize(request: CompactRequest, older: readonly Message[]): Promise<SummaryResult> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, request.timeoutMs);
  const onAbort = () => controller.abort();
  request.signal?.addEventListener("abort", onAbort, { once: true });
  if (request.signal?.aborted) controller.abort();
  try {
    let text = "";
    let stop: string | undefined;
    let error: string | undefined;
    for await (const event of request.provider.stream({
      model: request.model,
      system: SUMMARY_SYSTEM,
      messages: [{ role: "user", content: [{ type: "text", text: summaryRequestText(older) }] }],
      tools: [],
      signal: controller.signal,
    })) {
      if (event.type === "done") {
        stop = event.message.stop;
        error = event.message.error;
        text = event.message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
      }
    }
    if (timedOut) return { ok: false, status: "timed_out", error: `the summary took longer than ${request.timeoutMs} ms` };
    if (request.signal?.aborted || stop === "aborted") return { ok: false, status: "cancelled", error: "compaction was cancelled" };
    if (stop === "error" || stop === undefined) return { ok: false, status: "failed", error: error ?? "the summary request failed" };
    if (!text.trim()) return { ok: false, status: "failed", error: "the model returned an empty summary" };
    return { ok: true, text: text.trim() };
  } catch (err) {
    if (timedOut) return { ok: false, status: "timed_out", error: `the summary took longer than ${request.timeoutMs} ms` };
    if (request.signal?.aborted) return { ok: false, status: "cancelled", error: "compaction was cancelled" };
    return { ok: false, status: "failed", error: (err as Error)?.message ?? String(err) };
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener("abort", onAbort);
  }
}

const SUMMARY_SYSTEM =
  "You write handoff summaries of conversations between a user and a coding agent. " +
  "The summary replaces the conversation, so the agent must be able to continue the work from it alone.";

const RESULT_EXCERPT = 2_000;
const ARGS_EXCERPT = 500;

/** The conversation as plain text (no tool-call structure, so any provider accepts it). */
export function summaryRequestText(messages: readonly Message[]): string {
  const lines: string[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const images = message.content.filter((b) => b.type === "image").length;
      const text = message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
      lines.push(`User: ${text}${images ? ` [${images} image(s)]` : ""}`);
    } else if (message.role === "assistant") {
      for (const block of message.content) {
        if (block.type === "text" && block.text) lines.push(`Assistant: ${block.text}`);
        if (block.type === "tool_call") lines.push(`Assistant called ${block.name}(${cut(block.args_raw ?? JSON.stringify(block.args), ARGS_EXCERPT)})`);
      }
    } else {
      const text = message.content.flatMap((b) => (b.type === "text" ? [b.text] : ["[image]"])).join("\n");
      lines.push(`Result of ${message.tool_name}${message.is_error ? " (error)" : ""}: ${cut(text, RESULT_EXCERPT)}`);
    }
  }
  return [
    "Summarize the conversation below so the work can continue without it. Keep the user's goals and",
    "constraints, decisions made, files read or changed (with paths), commands run and their important",
    "results, errors met, and what remains to be done. Be factual and concise.",
    "",
    "<conversation>",
    ...lines,
    "</conversation>",
  ].join("\n");
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}... [${text.length - max} more characters]` : text;
}
