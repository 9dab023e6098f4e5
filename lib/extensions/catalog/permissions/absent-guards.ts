// Fail-closed guards the user configured that are not running. config.json's
// `extensions.<name>.on_failure: "block"` is the user's word that what <name> guards must not
// happen without it, so a guard that is missing, disabled, held back by trust, broken, or whose
// name a bundle took, refuses what it would intercept, with a message naming it and why. (A
// guard that was started and then failed is refused by the interceptor chain itself.)
import { INTERCEPTABLE_EVENTS, needsInterceptV2 } from "../../../events/names.ts";
import type { Candidate } from "../candidate.ts";
import type { Manifest } from "../manifest.ts";
import { explicitFailurePolicy, type OnFailure } from "./manifest-permissions.ts";

export interface AbsentGuard {
  name: string;
  /** The interceptable events it would guard. */
  events: ReadonlySet<string>;
  /** Why it is not running. */
  why: string;
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
    default: return `it was not started (${candidate.decision})`;
  }
}

/**
 * The configured fail-closed guards (`policies` by name) that no spawned extension runs, given
 * discovery's candidates in load order and whether discovery ran at all.
 */
export function absentGuards(policies: ReadonlyMap<string, OnFailure>, candidates: readonly Candidate[],
  spawned: ReadonlySet<string>, discovered: boolean): AbsentGuard[] {
  const guards: AbsentGuard[] = [];
  for (const [name, policy] of policies) {
    if (spawned.has(name)) continue;
    const candidate = candidates.find((c) => c.name === name && c.decision !== "shadowed");
    const events = eventsGuardedWhenAbsent(policy, candidate?.loaded?.manifest);
    if (events.size > 0) guards.push({ name, events, why: whyAbsent(candidate, discovered) });
  }
  return guards;
}

/** The reason given for what an absent guard refuses. */
export const absentGuardRefusal = (guard: AbsentGuard): string =>
  `refused: guard ${guard.name} is not running (${guard.why}); config.json sets extensions.${guard.name}.on_failure to block`;
