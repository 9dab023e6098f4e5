// What one hook run said, read by Claude Code's rules: exit 0 with JSON on stdout (or plain text),
// exit 2 is a blocking error whose stderr is the reason, any other status (or a timeout, or a
// command that cannot start) is a non-blocking error the user is told about.
import type { HookCommand } from "../../catalog/hook-settings.ts";
import type { HookProcessResult } from "./hook-process.ts";
import { isJsonObject } from "../../../protocol/index.ts";

export interface HookReply {
  hook: HookCommand;
  /** Exit 2: block (its stderr is the reason). */
  blocking: boolean;
  /** Exit 0 with a JSON object on stdout. */
  json?: Record<string, unknown>;
  /** Exit 0 with stdout that is not JSON. */
  text?: string;
  stderr: string;
  /** A non-blocking failure to show the user. */
  failure?: string;
}

const firstLine = (text: string): string => text.trim().split("\n")[0]?.slice(0, 300) ?? "";

export function readHookReply(hook: HookCommand, run: HookProcessResult): HookReply {
  const base = { hook, blocking: false, stderr: run.stderr.trim() };
  if (run.detached) return base;
  if (run.timedOut) return { ...base, failure: `timed out after ${hook.timeoutS} s` };
  if (run.cancelled) return { ...base, failure: "cancelled" };
  if (run.code === 2) return { ...base, blocking: true };
  if (run.code !== 0) {
    const why = run.error ?? `exited with status ${run.code ?? "unknown"}`;
    return { ...base, failure: base.stderr ? `${why}: ${firstLine(base.stderr)}` : why };
  }
  const out = run.stdout.trim();
  const json = jsonReply(out);
  if (json) return { ...base, json };
  return out ? { ...base, text: out } : base;
}

const parseObject = (text: string): Record<string, unknown> | undefined => {
  try {
    const parsed: unknown = JSON.parse(text);
    return isJsonObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The JSON object a hook answered with: all of stdout, or (for a hook that went on in the
 * background after `{"async": true}`) its first other line that is an object. Otherwise plain text.
 */
function jsonReply(out: string): Record<string, unknown> | undefined {
  if (!out.startsWith("{")) return undefined;
  const whole = parseObject(out);
  if (whole) return whole;
  for (const line of out.split("\n")) {
    const object = line.trim().startsWith("{") ? parseObject(line) : undefined;
    if (object && object.async !== true) return object;
  }
  return undefined;
}

/** The event-specific part of a JSON reply (`hookSpecificOutput`), when it names this event or none. */
export function specificOutput(reply: HookReply): Record<string, unknown> {
  const specific = reply.json?.hookSpecificOutput;
  if (!isJsonObject(specific)) return {};
  const named = specific.hookEventName;
  return named === undefined || named === reply.hook.event ? specific : {};
}

export const stringField = (from: Record<string, unknown> | undefined, key: string): string | undefined =>
  typeof from?.[key] === "string" && (from[key] as string).trim() !== "" ? (from[key] as string) : undefined;

/** `continue: false` in a reply: the agent stops, with `stopReason` for the user. */
export function stopRequest(reply: HookReply): { reason: string } | undefined {
  if (reply.json?.continue !== false) return undefined;
  return { reason: stringField(reply.json, "stopReason") ?? `stopped by hook: ${reply.hook.command}` };
}

/** The reason of a block: stderr for exit 2, else the JSON's `reason`/`permissionDecisionReason`. */
export function blockReason(reply: HookReply, fallback: string): string {
  if (reply.blocking) return reply.stderr || fallback;
  return stringField(specificOutput(reply), "permissionDecisionReason") ?? stringField(reply.json, "reason") ?? fallback;
}

/** `additionalContext` of a reply, and for the events where plain stdout is context, that text. */
export function contextOf(reply: HookReply, plainIsContext: boolean): string | undefined {
  return stringField(specificOutput(reply), "additionalContext") ?? (plainIsContext ? reply.text : undefined);
}
