// Which hooks a moment runs, by Claude Code's rules: a matcher of "", "*" or none matches all; a
// matcher of only letters, digits, `_` and `|` is a list of exact names; anything else is a
// regular expression tested against the value (the tool name, the session source, …). The `if`
// filter of a tool hook is a permission rule: `Bash`, `Bash(git *)`, `Edit(src/**/*.ts)`.
import { isAbsolute, relative } from "node:path";
import { TOOL_NAME_ALIASES } from "./claude-tools.ts";
import { globExpression } from "../../../tools/glob-pattern.ts";

const EXACT_LIST = /^[A-Za-z0-9_|]+$/;

/** Whether `matcher` selects `value` (a tool name also matches under its aliases). */
export function matcherMatches(matcher: string, value: string): boolean {
  if (matcher === "" || matcher === "*") return true;
  const names = [value, ...(TOOL_NAME_ALIASES[value] ?? [])];
  if (EXACT_LIST.test(matcher)) {
    const wanted = matcher.split("|");
    return names.some((name) => wanted.includes(name));
  }
  try {
    const pattern = new RegExp(matcher);
    return names.some((name) => pattern.test(name));
  } catch {
    return false;
  }
}

/** Why a matcher can never match (an invalid regular expression), for doctor. */
export function matcherProblem(matcher: string): string | undefined {
  if (matcher === "" || EXACT_LIST.test(matcher)) return undefined;
  try {
    new RegExp(matcher);
    return undefined;
  } catch (err) {
    return `matcher "${matcher}" is not a valid regular expression (${(err as Error).message}); it matches nothing`;
  }
}

const FILE_FIELDS: Record<string, string> = { Read: "file_path", Write: "file_path", Edit: "file_path", MultiEdit: "file_path", Glob: "path", Grep: "path" };

/**
 * Whether a permission rule covers a call: `Tool` alone covers every call of it; `Bash(spec)`
 * matches the command (`*` any text, a trailing `:*` a prefix); a file tool's spec is a glob
 * over the path, relative to the project unless it starts with `/`.
 */
export function permissionRuleMatches(rule: string, toolName: string, toolInput: Record<string, unknown>, cwd: string): boolean {
  const parsed = /^([^()]+?)(?:\((.*)\))?$/s.exec(rule.trim());
  if (!parsed) return false;
  const [, tool, spec] = parsed;
  if (!matcherMatches(tool!, toolName) && tool !== toolName) return false;
  if (spec === undefined || spec === "" || spec === "*") return true;
  if (toolName === "Bash") {
    const command = typeof toolInput.command === "string" ? toolInput.command.trim() : "";
    const prefix = spec.endsWith(":*") ? spec.slice(0, -2) : undefined;
    if (prefix !== undefined) return command === prefix || command.startsWith(`${prefix} `) || command.startsWith(prefix);
    return globExpression(spec, true).test(command);
  }
  const field = FILE_FIELDS[toolName];
  const value = field ? toolInput[field] : undefined;
  if (typeof value !== "string") return globExpression(spec, true).test(JSON.stringify(toolInput));
  const path = spec.startsWith("/") || !isAbsolute(value) ? value : relative(cwd, value);
  return globExpression(spec.startsWith("/") && !spec.startsWith("//") ? spec : spec.replace(/^\.\//, ""), false).test(path)
    || (!spec.includes("/") && globExpression(spec, false).test(path.split("/").pop() ?? path));
}
