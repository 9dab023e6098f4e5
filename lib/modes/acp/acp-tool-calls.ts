// How zot's tool calls look in an editor: ACP's kind, a title, the file locations, and (for write
// and edit) a diff of the file's text before and after. Built from the lifecycle events only.
import { isAbsolute, resolve } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";

const KINDS: Record<string, acp.ToolKind> = {
  read: "read", write: "edit", edit: "edit", bash: "execute", skill: "read", agent: "think", glob: "search", grep: "search",
};

export function toolKind(name: string): acp.ToolKind {
  return KINDS[name] ?? "other";
}

/** The file a built-in tool call works on, absolute; undefined for other tools. */
export function toolPath(name: string, args: Record<string, unknown> | undefined, cwd: string): string | undefined {
  if (!(name in KINDS) || typeof args?.path !== "string" || args.path === "") return undefined;
  return isAbsolute(args.path) ? args.path : resolve(cwd, args.path);
}

/** One line naming what the call does, as the editor lists it. */
export function toolTitle(name: string, args: Record<string, unknown> | undefined): string {
  const arg = (key: string) => (typeof args?.[key] === "string" ? (args[key] as string) : undefined);
  switch (name) {
    case "bash": return firstLine(arg("command") ?? "bash");
    case "read": return `Read ${arg("path") ?? ""}`.trim();
    case "write": return `Write ${arg("path") ?? ""}`.trim();
    case "edit": return `Edit ${arg("path") ?? ""}`.trim();
    case "skill": return `Skill ${arg("name") ?? ""}`.trim();
    case "agent": return `Agent: ${firstLine(arg("prompt") ?? "")}`;
    default: return name;
  }
}

function firstLine(text: string): string {
  const line = text.split("\n")[0] ?? "";
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

/** Whether a tool changes the file at its path (its diff is shown). */
export const changesFile = (name: string) => name === "write" || name === "edit";

/** A tool result's content as ACP tool call content. */
export function resultContent(content: ReadonlyArray<{ type: string; text?: string; mime_type?: string; data?: string }>): acp.ToolCallContent[] {
  return content.flatMap((block): acp.ToolCallContent[] => {
    if (block.type === "text" && block.text) return [{ type: "content", content: { type: "text", text: block.text } }];
    if (block.type === "image" && block.data && block.mime_type) return [{ type: "content", content: { type: "image", data: block.data, mimeType: block.mime_type } }];
    return [];
  });
}
