// Kimi K3 takes tool definitions inside the conversation: a system message with a `tools` array
// and no content makes them callable from that position on (Moonshot's dynamically loaded
// tools). zot places deferred tools that a tool result activated right after that result, so
// the request's prefix (and Moonshot's context cache of it) stays as it was; other models get
// the whole active tool list at the top level of the next request.
import type { OpenAIParams, OpenAIParamsOptions } from "./openai-request.ts";
import { toOpenAIParams } from "./openai-request.ts";
import type { StreamRequest, ToolSpec } from "./types.ts";

/** Kimi K3 and its variants (`kimi-k3`, `kimi-k3.1-pro`, …) accept message-level tools. */
export function acceptsMessageTools(model: string): boolean {
  return /^kimi-k3(\b|[.-])/.test(model);
}

interface Placement {
  /** Index in the request's messages of the tool result the tool came with. */
  after: number;
  /** That result's tool id: if the history changed beneath it, the tool goes back to the top. */
  toolId: string;
}

/**
 * A `toParams` for one conversation (a provider instance serves one session): the tools of the
 * first request stay in the top-level list; a tool that appears later was activated by the
 * newest tool result, and is declared after it on this and every later request.
 */
export function kimiToolPlacement(): (request: StreamRequest, options: OpenAIParamsOptions) => OpenAIParams {
  let topLevel: Set<string> | undefined;
  const placed = new Map<string, Placement>();
  return (request, options) => {
    if (!acceptsMessageTools(request.model)) return toOpenAIParams(request, options);
    const names = request.tools.map((tool) => tool.name);
    if (topLevel === undefined) {
      topLevel = new Set(names);
      return toOpenAIParams(request, options);
    }
    const { messages } = request;
    for (const [name, at] of placed) {
      const anchor = messages[at.after];
      if (anchor?.role !== "tool_result" || anchor.tool_id !== at.toolId) {
        placed.delete(name);
        topLevel.add(name);
      }
    }
    const newest = messages.findLastIndex((message) => message.role === "tool_result");
    for (const name of names) {
      if (topLevel.has(name) || placed.has(name)) continue;
      const anchor = messages[newest];
      if (anchor?.role === "tool_result") placed.set(name, { after: newest, toolId: anchor.tool_id });
      else topLevel.add(name); // no tool result to attach it to
    }
    const declarations = new Map<number, ToolSpec[]>();
    for (const tool of request.tools) {
      const at = placed.get(tool.name);
      if (at) declarations.set(at.after, [...(declarations.get(at.after) ?? []), tool]);
    }
    return toOpenAIParams(request, { ...options, toolDeclarations: declarations });
  };
}
