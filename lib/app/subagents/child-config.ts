// The run a child agent gets: the parent's, moved to the child's cwd and session file, with its
// model, its tools (built-in, extension and MCP names alike, never more than the parent has) and a
// system prompt that tells it it works for a parent agent, plus its type's instructions.
import { resolve } from "node:path";
import { BUILTIN_TOOL_NAMES } from "../../protocol/limits.ts";
import type { RunConfig } from "../run-config.ts";
import { parseModelSpec } from "../settings.ts";
import type { SubagentType } from "./subagent-types.ts";
import type { SubagentRecord } from "./records.ts";

export const SUBAGENT_PROMPT = "You are a subagent: a parent agent delegated the task in the first user message to you. "
  + "Nobody reads your messages while you work, and you cannot ask questions: decide for yourself and finish the task. "
  + "Only your final message goes back to the parent agent, so make it complete on its own: what you found or did, "
  + "with the file paths, names and figures that matter, and anything you could not do.";

export interface ChildChoice {
  model?: string;
  tools?: string[];
  type?: SubagentType;
}

export interface ParentRun {
  provider: string;
  model: string;
  jail: boolean;
  /** The tools the parent's model has now (built-in, extension and MCP). */
  toolNames: string[];
}

/** The child's tools split as a run takes them, or what is wrong with the choice. */
function childTools(choice: ChildChoice, parent: ParentRun): { builtin: string[]; extension: string[] } | undefined | string {
  const allowed = choice.type?.tools;
  if (choice.tools && allowed) {
    const beyond = choice.tools.filter((t) => !allowed.includes(t));
    if (beyond.length > 0) return `agent type ${choice.type!.name} does not allow ${beyond.join(", ")} (it allows ${allowed.join(", ")})`;
  }
  const wanted = choice.tools ?? allowed;
  if (!wanted) return undefined;
  const unknown = wanted.filter((t) => !parent.toolNames.includes(t));
  if (unknown.length > 0) return `unknown tool ${unknown.join(", ")} in tools (this agent has ${parent.toolNames.join(", ")})`;
  const isBuiltin = (t: string) => (BUILTIN_TOOL_NAMES as readonly string[]).includes(t);
  return { builtin: wanted.filter(isBuiltin), extension: wanted.filter((t) => !isBuiltin(t)) };
}

/** The child's RunConfig for `record`, or what is wrong with the choice. */
export function childRunConfig(base: RunConfig, record: SubagentRecord, choice: ChildChoice, parent: ParentRun): RunConfig | string {
  const tools = childTools(choice, parent);
  if (typeof tools === "string") return tools;
  let model: ReturnType<typeof parseModelSpec> | undefined;
  try {
    const spec = choice.model ?? choice.type?.model;
    model = spec ? parseModelSpec(spec) : undefined;
  } catch (err) {
    return (err as Error).message;
  }
  return {
    ...base,
    cwd: record.cwd,
    // The child starts elsewhere (its cwd, a worktree): paths the user gave relative to here are made absolute.
    extensions: { ...base.extensions, paths: base.extensions.paths.map((p) => resolve(p)) },
    provider: model?.provider ?? parent.provider,
    model: model?.model ?? parent.model,
    rememberModel: false,
    appendSystemPrompt: [...base.appendSystemPrompt, SUBAGENT_PROMPT, ...(choice.type?.instructions ? [choice.type.instructions] : [])],
    session: record.session_file ? { kind: "path", path: record.session_file } : { kind: "none" },
    ...(tools ? { tools: tools.builtin, extensionTools: tools.extension } : {}),
    yolo: true,
    jail: parent.jail,
  };
}
