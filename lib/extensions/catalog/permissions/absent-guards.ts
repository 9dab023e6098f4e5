// Fail-closed guards the user configured that are not running. config.json's
// `extensions.<name>.on_failure: "block"` is the user's word that what <name> guards must not
// happen without it, so a guard that is missing, disabled, held back by trust, broken, or whose
// name another copy took, refuses what it would intercept, with a message naming it and why. The
// same holds for `on_failure` in the manifest of one of the user's own guards (global or --ext)
// that is not running, unless the user disabled it: `zot ext disable` is the user's word too.
// (A guard that was started and then failed is refused by the interceptor chain itself.)
import { INTERCEPTABLE_EVENTS, needsInterceptV2 } from "../../../events/names.ts";
import type { Candidate } from "../candidate.ts";
import { nameKey } from "../names.ts";
import type { Manifest } from "../manifest.ts";
import { explicitFailurePolicy, type OnFailure } from "./manifest-permissions.ts";

export interface AbsentGuard {
  name: string;
  /** The interceptable events it would guard. */
  events: ReadonlySet<string>;
  /** Why it is not running. */
  why: string;
  /** Whose word makes it fail closed: config.json's or the guard's own extension.json's. */
  policyFrom: "config" | "manifest";
}

/** Events a manifest names as intercepted: `permissions.intercept` entries and `on_failure` keys. */
export function namedInterceptEvents(manifest: Pick<Manifest, "permissions" | "on_failure"> | undefined): Set<string> {
  const named = new Set<string>();
  const listed = manifest?.permissions?.intercept;
  if (Array.isArray(listed)) for (const event of listed) named.add(event);
  if (manifest?.on_failure && typeof manifest.on_failure === "object") for (const event of Object.keys(manifest.on_failure)) named.add(event);
  return named;
}

/**
 * The events a fail-closed policy covers while its extension cannot answer: those set to block,
 * where the policy or the manifest names events; every interceptable event for a plain "block"
 * whose manifest names none (what it would subscribe to is not known, so nothing may pass; the
 * `intercept_v2` points are left out there, as what they guard is refused before them anyway).
 */
export function eventsGuardedWhenAbsent(policy: OnFailure, manifest: Pick<Manifest, "permissions" | "on_failure"> | undefined): Set<string> {
  const candidates = typeof policy === "object" ? Object.keys(policy) : [...namedInterceptEvents(manifest)];
  const events = candidates.length > 0 ? candidates : INTERCEPTABLE_EVENTS.filter((event) => !needsInterceptV2(event));
  return new Set(events.filter((event) => explicitFailurePolicy(policy, event) === "block"));
}

function whyAbsent(candidate: Candidate | undefined, discovered: boolean): string {
  if (!candidate) return discovered ? "no extension of that name was found" : "extensions were not discovered (--no-ext)";
  const where = candidate.source ?? candidate.dir;
  switch (candidate.decision) {
    case "disabled": return `it is disabled (${where}); enable it with \`zot ext enable ${candidate.name}\``;
    case "untrusted": return candidate.trust?.message ?? "it is not trusted";
    case "error": return `it cannot be loaded: ${candidate.error ?? "invalid manifest"}`;
    case "bundle": return `its name is taken by the ${candidate.loaded?.kind ?? "bundle"} bundle in ${where}, which runs no program`;
    case "shadowed": return `another copy of that name in ${candidate.shadowedBy} took its place and is not running`;
    default: return `it was not started (${candidate.decision})`;
  }
}

/**
 * The configured fail-closed guards (`policies` by name, then the on_failure of the user's own
 * guards' manifests) that no spawned extension runs, given discovery's candidates in load order
 * and whether discovery ran at all.
 */
export function absentGuards(policies: ReadonlyMap<string, OnFailure>, candidates: readonly Candidate[],
  spawned: ReadonlySet<string>, discovered: boolean): AbsentGuard[] {
  const guards: AbsentGuard[] = [];
  for (const [name, { policy, policyFrom }] of userGuardPolicies(policies, candidates)) {
    if (spawned.has(name)) continue;
    const candidate = candidates.find((c) => c.name === name && c.decision !== "shadowed") ?? candidates.find((c) => c.name === name);
    const events = eventsGuardedWhenAbsent(policy, candidate?.loaded?.manifest);
    if (events.size > 0) guards.push({ name, events, why: whyAbsent(candidate, discovered), policyFrom });
  }
  return guards;
}

/**
 * The failure policies of the user's guards by name: config.json's, then those the manifests of
 * the user's own copies (global, --ext) declare, unless the user disabled that copy.
 */
export function userGuardPolicies(policies: ReadonlyMap<string, OnFailure>, candidates: readonly Candidate[]):
  Map<string, { policy: OnFailure; policyFrom: AbsentGuard["policyFrom"] }> {
  const all = new Map<string, { policy: OnFailure; policyFrom: AbsentGuard["policyFrom"] }>(
    [...policies].map(([name, policy]) => [name, { policy, policyFrom: "config" }]));
  for (const c of candidates) {
    const declared = c.loaded?.manifest.on_failure;
    if (declared === undefined || all.has(c.name) || c.decision === "disabled" || (c.scope !== "global" && c.scope !== "explicit")) continue;
    all.set(c.name, { policy: declared, policyFrom: "manifest" });
  }
  return all;
}

/** For each of `pending` that would take the name (or a case variant) of one of the user's fail-closed guards, what it replaces. */
export function replacedGuards(pending: readonly Candidate[], policies: ReadonlyMap<string, OnFailure>, candidates: readonly Candidate[]): Map<Candidate, string> {
  const guards = userGuardPolicies(policies, candidates);
  const replaced = new Map<Candidate, string>();
  for (const c of pending) {
    for (const [name, { policy }] of guards) {
      if (nameKey(name) !== nameKey(c.name) || eventsGuardedWhenAbsent(policy, undefined).size === 0) continue;
      const own = candidates.find((g) => g.name === name && g.scope !== "project");
      replaced.set(c, `it replaces your fail-closed guard "${name}"${own ? ` (${own.dir})` : ""}, which then does not run`);
    }
  }
  return replaced;
}

/** The reason given for what an absent guard refuses. */
export const absentGuardRefusal = (guard: AbsentGuard): string =>
  `refused: guard ${guard.name} is not running (${guard.why}); ${guard.policyFrom === "config"
    ? `config.json sets extensions.${guard.name}.on_failure` : "its extension.json sets on_failure"} to block`;
