// The user's say over interceptor failure policies: `$ZOT_HOME/config.json` may hold
//   {"extensions": {"<name>": {"on_failure": "block" | "allow" | {"tool_call": "block", …}}}}
// and it wins over the extension's manifest (the user decides whether a guard fails closed).
import * as v from "valibot";
import type { ZotConfig } from "../../config.ts";
import { describeIssues } from "../../protocol/issues.ts";
import { OnFailureSchema, PerEventFailureSchema, type OnFailure } from "./manifest-permissions.ts";

export interface UserFailurePolicies {
  /** Valid settings by extension name. */
  byName: Map<string, OnFailure>;
  /** Settings that could not be used, by extension name: why, for that extension's warnings. */
  problems: Map<string, string>;
  /** A problem with the `extensions` object itself. */
  problem?: string;
}

export function userFailurePolicies(config: ZotConfig): UserFailurePolicies {
  const result: UserFailurePolicies = { byName: new Map(), problems: new Map() };
  const extensions = config.extensions;
  if (extensions === undefined) return result;
  if (!extensions || typeof extensions !== "object" || Array.isArray(extensions)) {
    result.problem = "config.json: extensions must be an object mapping extension names to settings; ignored";
    return result;
  }
  for (const [name, settings] of Object.entries(extensions as Record<string, unknown>)) {
    if (!settings || typeof settings !== "object" || Array.isArray(settings)) continue;
    const value = (settings as Record<string, unknown>).on_failure;
    if (value === undefined) continue;
    // An object is checked on its own, so a misspelt event name is named rather than lost in the union.
    const parsed = v.safeParse(value && typeof value === "object" ? PerEventFailureSchema : OnFailureSchema, value);
    if (parsed.success) result.byName.set(name, parsed.output);
    else result.problems.set(name, `config.json extensions.${name}.on_failure: ${describeIssues(parsed.issues)}; ignored (the manifest's policy applies)`);
  }
  return result;
}
