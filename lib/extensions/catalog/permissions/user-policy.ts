// The user's say over extensions in `$ZOT_HOME/config.json`:
//   {"extensions": {"<name>": {"on_failure": "block" | "allow" | {"tool_call": "block", …}, "env": ["GITHUB_TOKEN"],
//                              "projects": {"<project folder>": {"env": ["GITHUB_TOKEN"]}}}}}
// on_failure wins over the extension's manifest (the user decides whether a guard fails closed);
// env names variables it gets although they look like credentials: `env` the global (or --ext)
// copy of that name only, `projects.<folder>.env` the copy of that name in that project only. A
// project copy that takes a global one's name does not take what the user gave the global one.
import * as v from "valibot";
import type { ZotConfig } from "../../../config.ts";
import { describeIssues } from "../../../protocol/issues.ts";
import type { Candidate } from "../candidate.ts";
import { projectKey } from "../trust/gate.ts";
import { OnFailureSchema, PerEventFailureSchema, type OnFailure } from "./manifest-permissions.ts";

export interface UserFailurePolicies {
  /** Valid settings by extension name. */
  byName: Map<string, OnFailure>;
  /** `extensions.<name>.env`: variables passed to its global (or --ext) copy although they look like credentials. */
  env: Map<string, string[]>;
  /** `extensions.<name>.projects.<folder>.env`, by name, then by project key (the folder's real path). */
  projectEnv: Map<string, Map<string, string[]>>;
  /** Settings that could not be used, by extension name: why, for that extension's warnings. */
  problems: Map<string, string>;
  /** A problem with the `extensions` object itself. */
  problem?: string;
}

export function userFailurePolicies(config: ZotConfig): UserFailurePolicies {
  const result: UserFailurePolicies = { byName: new Map(), env: new Map(), projectEnv: new Map(), problems: new Map() };
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
    const projects = projectEnvOf((settings as Record<string, unknown>).projects);
    if (typeof projects === "string") result.problems.set(name, `config.json extensions.${name}.projects ${projects}; ignored`);
    else if (projects.size) result.projectEnv.set(name, projects);
    const value = (settings as Record<string, unknown>).on_failure;
    if (value === undefined) continue;
    // An object is checked on its own, so a misspelt event name is named rather than lost in the union.
    const parsed = v.safeParse(value && typeof value === "object" ? PerEventFailureSchema : OnFailureSchema, value);
    if (parsed.success) result.byName.set(name, parsed.output);
    else result.problems.set(name, `config.json extensions.${name}.on_failure: ${describeIssues(parsed.issues)}; ignored (the manifest's policy applies)`);
  }
  return result;
}

/** `projects`: project folder → its `env`, keyed by the folder's real path; or what is wrong with it. */
function projectEnvOf(value: unknown): Map<string, string[]> | string {
  const byProject = new Map<string, string[]>();
  if (value === undefined) return byProject;
  if (!value || typeof value !== "object" || Array.isArray(value)) return "must be an object mapping project folders to {\"env\": [names]}";
  for (const [folder, settings] of Object.entries(value as Record<string, unknown>)) {
    const env = settings && typeof settings === "object" ? (settings as Record<string, unknown>).env : undefined;
    if (!Array.isArray(env) || !env.every((n) => typeof n === "string")) return `.${folder}.env must be an array of variable names`;
    byProject.set(projectKey(folder), env as string[]);
  }
  return byProject;
}

/** The variables config.json passes to `candidate` (run in project `cwd`): its global copy's, or its project copy's. */
export function passedEnv(policies: Pick<UserFailurePolicies, "env" | "projectEnv">, candidate: Pick<Candidate, "name" | "scope">, cwd: string): string[] {
  if (candidate.scope === "project") return policies.projectEnv.get(candidate.name)?.get(projectKey(cwd)) ?? [];
  return policies.env.get(candidate.name) ?? [];
}
