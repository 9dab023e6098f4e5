// What a command handler returns: one of the six `command_response` actions. Every helper takes
// an optional `error`, which the host shows as a red status line whatever the action.
import { isJsonObject } from "../protocol/index.ts";
import type { JsonObject, PanelView } from "./types.ts";

interface WithError {
  error?: string;
}

export type Response = WithError &
  (
    | { action: "prompt"; prompt: string }
    | { action: "tool_prompt"; prompt: string; toolName: string; toolArgs: JsonObject }
    | { action: "insert"; insert: string }
    | { action: "display"; display: string }
    | { action: "open_panel"; panel: PanelView & { id: string } }
    | { action: "noop" }
  );

const withError = <R extends Response>(response: R, error: string | undefined): R =>
  error === undefined ? response : { ...response, error };

/** Submit `text` as a fresh user message; the agent runs a turn on it. */
export function prompt(text: string, error?: string): Response {
  return withError({ action: "prompt", prompt: text }, error);
}

/** Append `text` to the chat as a one-shot note: no model call, not in the transcript. */
export function display(text: string, error?: string): Response {
  return withError({ action: "display", display: text }, error);
}

/** Insert `text` into the editor at the cursor without submitting it. */
export function insert(text: string, error?: string): Response {
  return withError({ action: "insert", insert: text }, error);
}

/** The extension handled it itself; no UI change (besides `error`, if given). */
export function noop(error?: string): Response {
  return withError({ action: "noop" }, error);
}

/** Open an extension-owned panel; keys arrive through `onPanelKey(id, …)`. */
export function openPanel(id: string, view: PanelView = {}, error?: string): Response {
  return withError({ action: "open_panel", panel: { id, ...view } }, error);
}

/**
 * Submit `prompt`, then have the host run `toolName` with `toolArgs` (a JSON object) through its
 * normal guards and record the call and its result before the model turn. The extension does
 * not see the result; unlike `callTool`, the tool runs after the handler returns.
 */
export function toolPrompt(toolName: string, toolArgs: JsonObject, prompt: string, error?: string): Response {
  return withError({ action: "tool_prompt", prompt, toolName, toolArgs }, error);
}

/** The wire frame for `response`, answering request `id`. Throws a TypeError on a value that is
 * not a Response, naming what is wrong. */
export function commandResponseFrame(id: string, response: unknown): { type: "command_response" } & JsonObject {
  if (response === null || typeof response !== "object" || typeof (response as Response).action !== "string") {
    throw new TypeError(
      `returned ${describeValue(response)} without an action; return prompt(), display(), insert(), noop(), openPanel() or toolPrompt()`,
    );
  }
  const r = response as Response;
  const base = { type: "command_response" as const, id, action: r.action };
  const error = r.error === undefined ? {} : { error: r.error };
  switch (r.action) {
    case "prompt":
      return { ...base, prompt: r.prompt, ...error };
    case "tool_prompt":
      if (!isJsonObject(r.toolArgs)) throw new TypeError("toolPrompt: toolArgs must be a JSON object");
      return { ...base, prompt: r.prompt, tool_name: r.toolName, tool_args: r.toolArgs, ...error };
    case "insert":
      return { ...base, insert: r.insert, ...error };
    case "display":
      return { ...base, display: r.display, ...error };
    case "open_panel":
      return { ...base, open_panel: r.panel, ...error };
    case "noop":
      return { ...base, ...error };
    default:
      throw new TypeError(`unknown action "${(r as { action: string }).action}"`);
  }
}

/** "null", "undefined", "an array", "an object", "a string", … for error messages. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (value === undefined) return "undefined";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
