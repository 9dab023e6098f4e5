// The `agent` tool: delegates a task to a child agent. The tool only checks its arguments; the
// work (a child zot process, its events, detached records) belongs to the delegate the
// composition root injects, so tools stay below the app layer.
import { errorOutcome, type Tool, type ToolOutcome } from "./types.ts";

/** One delegation as the model asked for it. */
export interface AgentRequest {
  prompt: string;
  name?: string;
  /** Return the agent id at once and run in the background. */
  detach?: boolean;
  /** Another model (`model` or `provider/model`) for the child. */
  model?: string;
  /** The child's tools: built-in, extension and MCP names (default: the parent's, or its type's). */
  tools?: string[];
  /** A named agent type (its instructions, tools and model). */
  type?: string;
  /** Work in a fresh git worktree on a new branch. */
  worktree?: boolean;
  /** Continue the transcript of this agent id. */
  resume?: string;
}

export interface AgentCallContext {
  signal: AbortSignal;
  /** One line per child tool call. */
  onProgress?: (text: string) => void;
  toolId?: string;
}

export interface AgentDelegate {
  run(request: AgentRequest, context: AgentCallContext): Promise<ToolOutcome>;
  /** More of the tool's description (the agent types on offer), read whenever the tools are listed. */
  describe?(): string;
}

const SCHEMA = {
  type: "object",
  properties: {
    prompt: { type: "string", description: "The complete task for the child agent: it sees nothing of this conversation." },
    name: { type: "string", description: "A short label for the task." },
    detach: { type: "boolean", description: "Run in the background and return the agent id at once; the answer arrives later." },
    model: { type: "string", description: "Model for the child (`model` or `provider/model`); default: this one." },
    type: { type: "string", description: "An agent type from the list in this tool's description; the child follows its instructions." },
    tools: { type: "array", items: { type: "string" }, description: "Tools the child may use (any of yours); default: the same as this agent, or its type's." },
    worktree: { type: "boolean", description: "Work in a fresh git worktree on a new branch (the cwd must be a git repository)." },
    resume: { type: "string", description: "Continue the agent with this id (its transcript is kept) with `prompt`." },
  },
  required: ["prompt"],
  additionalProperties: false,
} as const;

/** The request in `args`, or what is wrong with them. */
export function parseAgentRequest(args: Record<string, unknown>): AgentRequest | string {
  const { prompt, name, detach, model, tools, worktree, resume, type } = args;
  if (typeof prompt !== "string" || prompt.trim() === "") return "prompt must be a non-empty string";
  const optionalString = (value: unknown, field: string) =>
    value === undefined || typeof value === "string" ? undefined : `${field} must be a string`;
  const optionalBoolean = (value: unknown, field: string) =>
    value === undefined || typeof value === "boolean" ? undefined : `${field} must be true or false`;
  const problem = optionalString(name, "name") ?? optionalString(model, "model") ?? optionalString(resume, "resume") ?? optionalString(type, "type")
    ?? optionalBoolean(detach, "detach") ?? optionalBoolean(worktree, "worktree")
    ?? (tools === undefined || (Array.isArray(tools) && tools.every((t) => typeof t === "string")) ? undefined : "tools must be a list of tool names");
  if (problem) return problem;
  return {
    prompt,
    ...(name !== undefined ? { name: name as string } : {}),
    ...(detach === true ? { detach: true } : {}),
    ...(model !== undefined ? { model: model as string } : {}),
    ...(tools !== undefined ? { tools: tools as string[] } : {}),
    ...(worktree === true ? { worktree: true } : {}),
    ...(resume !== undefined ? { resume: resume as string } : {}),
    ...(type !== undefined ? { type: type as string } : {}),
  };
}

const DESCRIPTION = "Delegate a self-contained task to a child agent that has its own fresh transcript and the same working directory. "
  + "Without detach it waits and returns the child's final answer; several agent calls in one response run in parallel. "
  + "With detach it returns an agent id at once and the answer arrives at the start of a later turn. "
  + "resume continues an earlier agent.";

export function createAgentTool(delegate: AgentDelegate): Tool {
  return {
    name: "agent",
    get description() {
      return DESCRIPTION + (delegate.describe?.() ?? "");
    },
    schema: SCHEMA as unknown as Record<string, unknown>,
    source: { kind: "builtin" },
    concurrent: true,
    preview: (args) => {
      const label = typeof args.name === "string" ? `${args.name}: ` : typeof args.resume === "string" ? `${args.resume}: ` : "";
      const prompt = typeof args.prompt === "string" ? args.prompt.replace(/\s+/g, " ") : "";
      return `${label}${prompt.length > 70 ? `${prompt.slice(0, 67)}...` : prompt}${args.detach === true ? " (detached)" : ""}`;
    },
    async execute(args, ctx) {
      const request = parseAgentRequest(args);
      if (typeof request === "string") return errorOutcome(`agent: ${request}`);
      return delegate.run(request, {
        signal: ctx.signal,
        ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}),
        ...(ctx.toolId !== undefined ? { toolId: ctx.toolId } : {}),
      });
    },
  };
}
