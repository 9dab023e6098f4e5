// zot's tool calls as Claude Code names them, so a hook written for Claude Code sees the tool
// names and inputs it expects (`Bash {command, timeout}`, `Read {file_path, offset, limit}`, …,
// `file_path` absolute), and what a hook hands back (`updatedInput`) becomes zot's arguments again.
import { expandPath } from "../../../tools/tool-path.ts";
import type { ToolContent } from "../../../tools/types.ts";
import type { ToolOwner } from "../../../protocol/index.ts";
import { isJsonObject } from "../../../protocol/index.ts";

export interface ClaudeToolCall {
  toolName: string;
  toolInput: Record<string, unknown>;
}

/** Who provides a tool that is not built in: an MCP server's tool is `mcp__<server>__<tool>` in Claude Code. */
export type { ToolOwner } from "../../../protocol/index.ts";

const CLAUDE_NAMES: Record<string, string> = {
  bash: "Bash", read: "Read", write: "Write", edit: "Edit", glob: "Glob", grep: "Grep", agent: "Task", skill: "Skill",
};

/** Names a matcher may use for the same tool (Claude Code renamed Task to Agent). */
export const TOOL_NAME_ALIASES: Record<string, string[]> = { Task: ["Agent"], Edit: ["MultiEdit"] };

const defined = (entries: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));

/** zot's edits of an `edit` call: the `edits` array or the single-edit shorthand. */
function zotEdits(args: Record<string, unknown>): Array<{ old_text: unknown; new_text: unknown }> {
  if (Array.isArray(args.edits)) return args.edits.filter(isJsonObject).map((e) => ({ old_text: e.old_text, new_text: e.new_text }));
  return [{ old_text: args.old_text, new_text: args.new_text }];
}

/** A zot tool call as Claude Code would have made it. */
export function toClaudeCall(toolName: string, args: Record<string, unknown>, cwd: string, owner?: ToolOwner): ClaudeToolCall {
  const filePath = typeof args.path === "string" ? expandPath(args.path, cwd) : args.path;
  switch (toolName) {
    case "bash":
      return { toolName: "Bash", toolInput: defined({ command: args.command,
        timeout: typeof args.timeout === "number" ? Math.round(args.timeout * 1000) : undefined }) };
    case "read":
      return { toolName: "Read", toolInput: defined({ file_path: filePath, offset: args.offset, limit: args.limit }) };
    case "write":
      return { toolName: "Write", toolInput: { file_path: filePath, content: args.content } };
    case "edit": {
      const edits = zotEdits(args);
      if (edits.length === 1) {
        return { toolName: "Edit", toolInput: { file_path: filePath, old_string: edits[0]!.old_text, new_string: edits[0]!.new_text, replace_all: false } };
      }
      return { toolName: "MultiEdit", toolInput: { file_path: filePath,
        edits: edits.map((e) => ({ old_string: e.old_text, new_string: e.new_text, replace_all: false })) } };
    }
    case "glob":
    case "grep":
      return { toolName: CLAUDE_NAMES[toolName]!, toolInput: { ...args, ...(typeof args.path === "string" ? { path: filePath } : {}) } };
    case "agent":
      return { toolName: "Task", toolInput: defined({ prompt: args.prompt, description: args.name, subagent_type: args.type, model: args.model }) };
    case "skill":
      return { toolName: "Skill", toolInput: { skill: args.name } };
  }
  if (owner?.kind === "mcp" && owner.name) return { toolName: `mcp__${owner.extension}__${owner.name}`, toolInput: args };
  return { toolName, toolInput: args };
}

/**
 * A hook's `updatedInput` for a call as zot's arguments: the Claude Code fields it names replace
 * the matching zot ones, and zot's other arguments stay. Tools zot does not rename take it as it is.
 */
export function fromClaudeInput(toolName: string, updated: Record<string, unknown>, original: Record<string, unknown>): Record<string, unknown> {
  const path = typeof updated.file_path === "string" ? { path: updated.file_path } : {};
  switch (toolName) {
    case "bash":
      return defined({ ...original, ...("command" in updated ? { command: updated.command } : {}),
        ...(typeof updated.timeout === "number" ? { timeout: updated.timeout / 1000 } : {}) });
    case "read":
      return defined({ ...original, ...path, ...pick(updated, ["offset", "limit"]) });
    case "write":
      return { ...original, ...path, ...pick(updated, ["content"]) };
    case "edit": {
      const { edits: _edits, old_text: _old, new_text: _new, ...rest } = original;
      if (Array.isArray(updated.edits)) {
        return { ...rest, ...path, edits: updated.edits.filter(isJsonObject).map((e) => ({ old_text: e.old_string, new_text: e.new_string })) };
      }
      const edits = zotEdits(original);
      const old = "old_string" in updated ? updated.old_string : edits[0]?.old_text;
      const next = "new_string" in updated ? updated.new_string : edits[0]?.new_text;
      return { ...rest, ...path, edits: [{ old_text: old, new_text: next }] };
    }
    case "agent":
      return defined({ ...original, ...("prompt" in updated ? { prompt: updated.prompt } : {}),
        ...("description" in updated ? { name: updated.description } : {}),
        ...("subagent_type" in updated ? { type: updated.subagent_type } : {}),
        ...("model" in updated ? { model: updated.model } : {}) });
    case "skill":
      return "skill" in updated ? { ...original, name: updated.skill } : original;
    case "glob":
    case "grep":
      return { ...original, ...updated };
  }
  return updated;
}

function pick(from: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => k in from).map((k) => [k, from[k]]));
}

const textOf = (content: readonly ToolContent[]): string =>
  content.filter((b): b is Extract<ToolContent, { type: "text" }> => b.type === "text").map((b) => b.text).join("\n");

/** What a PostToolUse hook gets as `tool_response`, in the shape Claude Code's tools report. */
export function claudeToolResponse(toolName: string, input: Record<string, unknown>, content: readonly ToolContent[], isError: boolean): unknown {
  const text = textOf(content);
  switch (toolName) {
    case "bash":
      return { stdout: isError ? "" : text, stderr: isError ? text : "", interrupted: false, isImage: false };
    case "read":
      return { type: "text", file: { filePath: input.file_path, content: text } };
    case "write":
      return { type: "create", filePath: input.file_path, content: input.content };
    case "edit":
      return { filePath: input.file_path, oldString: input.old_string, newString: input.new_string, replaceAll: false, userModified: false };
  }
  return content.length === 1 && content[0]!.type === "text" ? text : content;
}
