// Whether a tool call may run, decided before execution. Yolo (the default) approves every call.
// With yolo off, a confirmer asks the user (yes / always this tool / always this session / no)
// and "always" answers are remembered for the rest of the conversation. Without a confirmer
// (print, json and rpc modes) calls run freely after one warning, as host.md requires.
import { isAbortError, raceAbort } from "./abort.ts";
import type { ConfirmationAnswer } from "../contracts/hooks.ts";
import type { PermissionDecision, PermissionSource } from "../../events/index.ts";

export type ConfirmAnswer = "yes" | "always_tool" | "always_session" | "no";

export interface ConfirmRequest {
  toolId: string;
  toolName: string;
  toolPreview: string;
  toolArgs: Record<string, unknown>;
  originExtension?: string;
  /** The unified diff the call would make to a file, shown before the question. */
  diff?: string;
  signal: AbortSignal;
}

/** Asks the user about one call. Rejecting or aborting counts as a cancelled confirmation. */
export type Confirmer = (request: ConfirmRequest) => Promise<ConfirmAnswer>;

export interface PermissionVerdict {
  decision: PermissionDecision;
  source: PermissionSource;
  reason?: string;
}

export type { ConfirmationAnswer };

export interface PermissionRequest {
  toolId: string;
  toolName: string;
  toolArgs: Record<string, unknown>;
  originExtension?: string;
  /** The one-line preview shown when asking; may throw (then the call is denied). */
  preview: () => string;
  /** The file change the call would make, when the tool can tell; may reject (then none is shown). */
  change?: () => Promise<string>;
  /** Called right before the confirmer is asked (emits tool_confirmation_requested). */
  onAsk: (preview: string) => void;
  signal: AbortSignal;
  /**
   * An interceptor's word on confirmation: "allow" approves without asking; "ask" asks even in
   * yolo mode or after an "always" answer, and denies where nobody can be asked.
   */
  interception?: { decision: "allow" | "ask"; by: string; reason?: string };
  /**
   * Asked right before the user would be: an interceptor of the confirmation may answer for
   * them (intercept_v2's tool_confirmation point). Undefined: the user is asked.
   */
  answerFirst?: (preview: string) => Promise<ConfirmationAnswer | undefined>;
}

export interface PermissionPolicyOptions {
  yolo?: boolean;
  confirmer?: Confirmer;
  /** Receives the one-time warning that calls run unconfirmed because nobody can be asked. */
  warn?: (message: string) => void;
}

export const NO_CONFIRMER_REASON = "no confirmer is available in this mode: running without confirmation";

export class PermissionPolicy {
  yolo: boolean;
  confirmer: Confirmer | undefined;
  private readonly warn: (message: string) => void;
  private readonly approvedTools = new Set<string>();
  private approvedSession = false;
  private warned = false;

  constructor(options: PermissionPolicyOptions = {}) {
    this.yolo = options.yolo ?? true;
    this.confirmer = options.confirmer;
    this.warn = options.warn ?? (() => undefined);
  }

  /** Forgets every remembered approval. */
  forget(): void {
    this.approvedTools.clear();
    this.approvedSession = false;
  }

  async decide(request: PermissionRequest): Promise<PermissionVerdict> {
    const insists = request.interception?.decision === "ask";
    if (request.interception?.decision === "allow" && !this.yolo) {
      return { decision: "approved", source: "policy", reason: `allowed by ${request.interception.by}${request.interception.reason ? `: ${request.interception.reason}` : ""}` };
    }
    if (insists && !this.confirmer) {
      const why = request.interception!.reason ? ` (${request.interception!.reason})` : "";
      return { decision: "denied", source: "policy", reason: `${request.interception!.by} asks for confirmation${why}, and nobody can confirm in this mode` };
    }
    if (!insists && this.yolo) return { decision: "approved", source: "yolo" };
    if (!insists && (this.approvedSession || this.approvedTools.has(request.toolName))) return { decision: "approved", source: "remembered" };
    if (!this.confirmer) {
      if (!this.warned) {
        this.warned = true;
        this.warn(`--no-yolo: ${NO_CONFIRMER_REASON}`);
      }
      return { decision: "approved", source: "policy", reason: NO_CONFIRMER_REASON };
    }
    let preview: string;
    try {
      preview = request.preview();
    } catch (err) {
      return { decision: "denied", source: "policy", reason: `could not preview the call: ${(err as Error)?.message ?? String(err)}` };
    }
    const early = await request.answerFirst?.(preview).catch(() => undefined);
    if (early) {
      const reason = `${early.decision === "allow" ? "allowed" : "denied"} by ${early.by}${early.reason ? `: ${early.reason}` : ""}`;
      return { decision: early.decision === "allow" ? "approved" : "denied", source: "policy", reason };
    }
    const diff = await request.change?.().catch(() => undefined);
    request.onAsk(preview);
    let answer: ConfirmAnswer;
    try {
      answer = await raceAbort(
        this.confirmer({
          toolId: request.toolId,
          toolName: request.toolName,
          toolPreview: preview,
          toolArgs: request.toolArgs,
          originExtension: request.originExtension,
          ...(diff ? { diff } : {}),
          signal: request.signal,
        }),
        request.signal,
      );
    } catch (err) {
      const why = isAbortError(err) ? "the run was cancelled while waiting for confirmation" : `confirmation failed: ${(err as Error)?.message ?? String(err)}`;
      return { decision: "cancelled", source: "user", reason: why };
    }
    switch (answer) {
      case "yes":
        return { decision: "approved", source: "user" };
      case "always_tool":
        this.approvedTools.add(request.toolName);
        return { decision: "approved", source: "user" };
      case "always_session":
        this.approvedSession = true;
        return { decision: "approved", source: "user" };
      default:
        return { decision: "denied", source: "user", reason: "the user declined this tool call" };
    }
  }
}
