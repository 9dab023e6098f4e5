// The user's say over extensions in `$ZOT_HOME/config.json`:
//   {"extensions": {"<name>": {"on_failure": "block" | "allow" | {"tool_call": "block", …}, "env": ["GITHUB_TOKEN"]}}}
// on_failure wins over the extension's manifest (the user decides whether a guard fails closed);
// env names variables it gets although they look like credentials.
import * as v from "valibot";
import type { ZotConfig } from "../../../config.ts";
import { describeIssues } from "../../../protocol/issues.ts";
import { OnFailureSchema, PerEventFailureSchema, type OnFailure } from "./manifest-permissions.ts";

export interface UserFailurePolicies {
  /** Valid settings by extension name. */
  byName: Map<string, OnFailure>;
  /** `extensions.<name>.env`: variables passed to it although they look like credentials. */
  env: Map<string, string[]>;
  /** Settings that could not be used, by extension name: why, for that extension's warnings. */
  problems: Map<string, string>;
  /** A problem with the `extensions` object itself. */
  problem?: string;
}

export function userFailurePolicies(config: ZotConfig): UserFailurePolicies {
  const result: UserFailurePolicies = { byName: new Map(), env: new Map(), problems: new Map() };
  const extensions = config.extensions;
  if (extensions === undefined) return result;
  if (!extensions || typeof extensions !== "object" || Array.isArray(extensions)) {
    result.problem = "config.json: extensions must be an object mapping extension names to settings; ignored";
    return result;
  }
  for (const [name, settings] of Object.entries(extensions as Record<string, unknown>)) {
    if (!settings || typeof settings !== "object" || Array.isArray(settings)) continue;
    const env = (settings as Record<string, unknown>).env;
    if (Array.isArray(env) && env.every((n) => typeof n === "string")) result.env.set(name, env as string[]);
    else if (env !== undefined) result.problems.set(name, `config.json extensions.${name}.env must be an array of variable names; ignored`);
    const value = (settings as Record<string, unknown>).on_failure;
    if (value === undefined) continue;
    // An object is checked on its own, so a misspelt event name is named rather than lost in the union.
    const parsed = v.safeParse(value && typeof value === "object" ? PerEventFailureSchema : OnFailureSchema, value);
    if (parsed.success) result.byName.set(name, parsed.output);
    else result.problems.set(name, `config.json extensions.${name}.on_failure: ${describeIssues(parsed.issues)}; ignored (the manifest's policy applies)`);
  }
  return result;
}
