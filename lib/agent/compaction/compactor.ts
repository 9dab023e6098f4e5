// Runs compaction attempts against the live transcript: manual (`compact()`) and automatic
// (before a model step once the estimate reaches the threshold of the context window). Every
// attempt emits pre_compact and a matching post_compact whose counts describe the resulting
// in-memory transcript, then compact_done with the summary (empty when nothing was summarised
// or the attempt failed). The summary call's token usage is reported like a model step's.
import type { HostEvent } from "../../events/index.ts";
import { compactTranscript, DEFAULT_COMPACTION, type CompactionSettings } from "./compaction.ts";
import type { CompactResult } from "../session/agent-options.ts";
import type { Emitter } from "../contracts/emitter.ts";
import { estimateTokens } from "./tokens.ts";
import type { Transcript } from "../session/transcript.ts";
import type { Provider, Usage } from "../../providers/types.ts";
import { emptyUsage } from "../../providers/usage.ts";

export interface CompactorOptions {
  emit: Emitter;
  /** The live transcript (a getter: a session switch replaces it). */
  transcript: () => Transcript;
  provider: () => Provider;
  model: () => string;
  contextWindow: () => number;
  settings?: Partial<CompactionSettings>;
  newId: () => string;
  /** Called with the usage of every summary response, completed or not: its tokens were spent. */
  onUsage?: (usage: Usage) => void;
}

/** `provider`, calling `onUsage` as each response it streams ends. */
function reportingUsage(provider: Provider, onUsage: (usage: Usage) => void): Provider {
  return {
    name: provider.name,
    async *stream(request) {
      for await (const event of provider.stream(request)) {
        if (event.type === "done") onUsage(event.message.usage ?? emptyUsage());
        yield event;
      }
    },
  };
}

export class Compactor {
  readonly settings: CompactionSettings;

  constructor(private readonly options: CompactorOptions) {
    this.settings = { ...DEFAULT_COMPACTION, ...options.settings };
  }

  /**
   * Compacts when transcript plus `systemPrompt` reach the threshold. A failure does not stop
   * the run. Returns false when the attempt did not bring the estimate under the threshold, so
   * the caller can stop retrying for the rest of the run.
   */
  async maybeAuto(signal: AbortSignal, systemPrompt: string): Promise<boolean> {
    const limit = this.settings.threshold * this.options.contextWindow();
    if (estimateTokens(this.options.transcript().messages, systemPrompt) < limit) return true;
    const result = await this.run(signal);
    if (result.status === "failed" || result.status === "timed_out") {
      this.options.emit.host({ type: "error", message: `automatic compaction ${result.status === "failed" ? "failed" : "timed out"}: ${result.error}` });
    }
    return result.status === "completed" && estimateTokens(this.options.transcript().messages, systemPrompt) < limit;
  }

  async run(signal: AbortSignal): Promise<CompactResult> {
    const { emit } = this.options;
    const transcript = this.options.transcript();
    const compactionId = this.options.newId();
    const before = transcript.messages;
    emit.lifecycle({ type: "pre_compact", compaction_id: compactionId, message_count: before.length, token_estimate: transcript.tokenEstimate() });
    const keepRecentTokens = Math.min(this.settings.keepRecentTokens, Math.floor(this.options.contextWindow() * 0.3));
    const { onUsage } = this.options;
    const outcome = await compactTranscript({
      provider: onUsage ? reportingUsage(this.options.provider(), onUsage) : this.options.provider(),
      model: this.options.model(),
      messages: before,
      keepRecentTokens,
      timeoutMs: this.settings.timeoutMs,
      signal,
    });
    if (outcome.status === "completed" && outcome.summary) transcript.compact(compactionId, outcome.summary, outcome.kept);
    const result: CompactResult = {
      compaction_id: compactionId,
      status: outcome.status,
      ...(outcome.status !== "completed" ? { error: outcome.error } : {}),
      message_count: transcript.messages.length,
      token_estimate: transcript.tokenEstimate(),
    };
    emit.lifecycle({ type: "post_compact", ...result });
    emit.host({ type: "compact_done", summary: outcome.status === "completed" ? (outcome.summaryText ?? "") : "" });
    return result;
  }
}

/** The `done` a compaction run on its own (rpc `compact`, `/compact`) ends with. */
export function compactionDone(result: CompactResult): Extract<HostEvent, { type: "done" }> {
  if (result.status === "completed") return { type: "done", stop: "end_turn" };
  if (result.status === "cancelled") return { type: "done", stop: "aborted" };
  return { type: "done", stop: "error", error: `compaction ${result.status}${result.error ? `: ${result.error}` : ""}` };
}
