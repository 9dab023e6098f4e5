// The interception points of `intercept_v2` (docs/protocol-additions.md): a tool_call answer's
// confirmation decision and context, and the tool_result, user_prompt_submit and before_agent_end
// chains. They ask through InterceptorChains' consult, so deadlines, failure policies and cut-offs
// are the same as for the first points. Only extensions that said intercept_v2 in hello can
// subscribe to these points, and only their tool_call answers add a decision or context.
import * as v from "valibot";
import type {
  AgentEndInput, ConfirmationInput, InterceptedAgentEnd, InterceptedPrompt, InterceptedToolCall, InterceptedToolResult, PromptInput, ToolResultInput,
} from "../../agent/contracts/hooks.ts";
import { ExtensionContentSchema, splitSupportedBlocks } from "../../protocol/blocks.ts";
import type { EventInterceptResponseFrame } from "../../protocol/extension-frames.ts";
import type { ToolContent } from "../../tools/types.ts";
import type { ConfirmationAnswer } from "../../agent/loop/permissions.ts";
import { absentGuardRefusal, type AbsentGuard } from "../catalog/permissions/absent-guards.ts";
import type { LoadedExtension } from "../runtime/extension.ts";

type Response = EventInterceptResponseFrame;

/** The reason a fail-closed guard's failure gives. */
export const guardRefusal = (name: string): string => `refused: guard ${name} did not answer`;

/** What the points need of InterceptorChains. */
export interface Consulting {
  interceptors(event: string): LoadedExtension[];
  absentGuard(event: string): AbsentGuard | undefined;
  consult(ext: LoadedExtension, payload: Record<string, unknown> & { event: string }, signal: AbortSignal | undefined): Promise<Response | "refuse" | undefined>;
  unusable(ext: LoadedExtension, event: string, message: string): boolean;
  ownerField(ext: LoadedExtension, toolName: string): Record<string, unknown>;
}

/**
 * The confirmation decision and the context of a tool_call chain that did not block: "ask" from
 * any interceptor wins over "allow" (a guard insisting on the user is never overruled by another
 * one skipping them); contexts in chain order.
 */
export function toolCallExtras(chain: readonly LoadedExtension[], answers: ReadonlyMap<LoadedExtension, Response>):
  Pick<InterceptedToolCall, "permission" | "context"> {
  let permission: InterceptedToolCall["permission"];
  const context: string[] = [];
  for (const ext of chain) {
    const answer = answers.get(ext);
    if (!answer) continue;
    if (answer.additional_context) context.push(answer.additional_context);
    if (answer.decision && (!permission || (permission.decision === "allow" && answer.decision === "ask"))) {
      permission = { decision: answer.decision, by: ext.name, ...(answer.reason ? { reason: answer.reason } : {}) };
    }
  }
  return { ...(permission ? { permission } : {}), ...(context.length ? { context } : {}) };
}

export class InterceptPoints {
  constructor(private readonly chains: Consulting) {}

  /**
   * tool_result: each interceptor sees the content as the previous one left it; `replace_content`
   * replaces it, `additional_context` (and a `block`'s `reason`: the tool already ran, so a block
   * is feedback) is given to the model after it. A fail-closed guard that cannot answer withholds
   * the output: the model gets the refusal instead.
   */
  async toolResult(result: ToolResultInput, signal?: AbortSignal): Promise<InterceptedToolResult> {
    let content = result.content;
    const replacedBy: string[] = [];
    const context: string[] = [];
    const done = (): InterceptedToolResult => ({ content, ...(replacedBy.length ? { replacedBy } : {}), ...(context.length ? { context } : {}) });
    const absent = this.chains.absentGuard("tool_result");
    if (absent) return { content: [{ type: "text", text: absentGuardRefusal(absent) }] };
    for (const ext of this.chains.interceptors("tool_result")) {
      if (signal?.aborted) break;
      const response = await this.chains.consult(ext, {
        event: "tool_result", tool_id: result.toolId, tool_name: result.toolName, tool_args: result.toolArgs,
        status: result.status, result: { content, is_error: result.isError },
        ...(result.originExtension !== undefined ? { origin_extension: result.originExtension } : {}),
        ...this.chains.ownerField(ext, result.toolName),
      }, signal);
      if (response === "refuse") return { content: [{ type: "text", text: guardRefusal(ext.name) }] };
      if (!response) continue;
      if (response.replace_content !== undefined) {
        const parsed = v.safeParse(ExtensionContentSchema, response.replace_content);
        if (!parsed.success) {
          const why = parsed.issues[0]?.message ?? "invalid content";
          if (this.chains.unusable(ext, "tool_result", `tool_result interception: replace_content: ${why}`)) {
            return { content: [{ type: "text", text: guardRefusal(ext.name) }] };
          }
        } else {
          const { blocks, unsupported } = splitSupportedBlocks(parsed.output);
          if (unsupported.length) ext.log(`tool_result interception: omitted blocks of type ${unsupported.join(", ")}`);
          content = blocks as ToolContent[];
          if (!replacedBy.includes(ext.name)) replacedBy.push(ext.name);
          ext.noteRewrite("tool_result", `the result of ${result.toolName} call ${result.toolId}`);
        }
      }
      if (response.block && response.reason) context.push(response.reason);
      if (response.additional_context) context.push(response.additional_context);
    }
    return done();
  }

  /** user_prompt_submit: the first `block` keeps the prompt from the model; contexts add up. */
  async prompt(prompt: PromptInput, signal?: AbortSignal): Promise<InterceptedPrompt> {
    const absent = this.chains.absentGuard("user_prompt_submit");
    if (absent) return { block: true, reason: absentGuardRefusal(absent), extension: absent.name };
    const context: string[] = [];
    for (const ext of this.chains.interceptors("user_prompt_submit")) {
      if (signal?.aborted) break;
      const response = await this.chains.consult(ext, {
        event: "user_prompt_submit", text: prompt.text, ...(prompt.imageCount > 0 ? { image_count: prompt.imageCount } : {}),
      }, signal);
      if (response === "refuse") return { block: true, reason: guardRefusal(ext.name), extension: ext.name };
      if (!response) continue;
      if (response.block) return { block: true, reason: response.reason || `blocked by extension "${ext.name}"`, extension: ext.name };
      if (response.additional_context) context.push(response.additional_context);
    }
    return { block: false, ...(context.length ? { context } : {}) };
  }

  /**
   * before_agent_end: the first `continue_with` continues the agent with that prompt. There is
   * nothing to refuse here: a guard that cannot answer lets the run end.
   */
  async agentEnd(end: AgentEndInput, signal?: AbortSignal): Promise<InterceptedAgentEnd> {
    for (const ext of this.chains.interceptors("before_agent_end")) {
      if (signal?.aborted) break;
      const response = await this.chains.consult(ext, {
        event: "before_agent_end", text: end.text, continuations: end.continuations,
      }, signal);
      if (response && response !== "refuse" && response.continue_with?.trim()) return { continueWith: response.continue_with, extension: ext.name };
    }
    return {};
  }

  /**
   * tool_confirmation: before the user is asked, an interceptor may answer for them; a `block`
   * denies (and wins over another's allow), `decision: "allow"` approves. A fail-closed guard
   * that cannot answer denies.
   */
  async confirmation(input: ConfirmationInput, signal?: AbortSignal): Promise<ConfirmationAnswer | undefined> {
    const absent = this.chains.absentGuard("tool_confirmation");
    if (absent) return { decision: "deny", by: absent.name, reason: absentGuardRefusal(absent) };
    let allowed: ConfirmationAnswer | undefined;
    for (const ext of this.chains.interceptors("tool_confirmation")) {
      if (signal?.aborted) return undefined;
      const response = await this.chains.consult(ext, {
        event: "tool_confirmation", tool_id: input.toolId, tool_name: input.toolName, tool_args: input.toolArgs, tool_preview: input.preview,
        ...this.chains.ownerField(ext, input.toolName),
      }, signal);
      if (response === "refuse") return { decision: "deny", by: ext.name, reason: guardRefusal(ext.name) };
      if (!response) continue;
      if (response.block) return { decision: "deny", by: ext.name, ...(response.reason ? { reason: response.reason } : {}) };
      if (response.decision === "allow") allowed ??= { decision: "allow", by: ext.name, ...(response.reason ? { reason: response.reason } : {}) };
    }
    return allowed;
  }
}
