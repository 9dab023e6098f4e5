// The model a Markdown command's `model` frontmatter asks for, in the session's provider:
// Claude Code's aliases (`haiku`, `sonnet`, `opus`) name the provider's newest model of that
// family when it has one; `inherit`, or an alias the provider has no model for, is the session's
// model; a full id runs when the provider's list has it, and otherwise the user is told.
import { findModel, listModels } from "../providers/index.ts";

const ALIASES = new Set(["haiku", "sonnet", "opus"]);

export function commandModel(spec: string, provider: string): { model?: string; warning?: string } {
  const wanted = spec.trim();
  if (wanted === "" || wanted === "inherit") return {};
  if (ALIASES.has(wanted.toLowerCase())) {
    const newest = listModels(provider).find((m) => !m.deprecated && m.id.includes(`-${wanted.toLowerCase()}-`));
    return newest ? { model: newest.id } : {};
  }
  if (findModel(provider, wanted)) return { model: wanted };
  return { warning: `the command asks for model "${wanted}", which ${provider} does not list; the session's model answers` };
}
