// The trust a zot run applies to discovery: the records in trust.json, --trust-project, and (in
// the REPL) one question about the project's untrusted extensions, whose yes is recorded.
import type { ZotPaths } from "../../../paths.ts";
import type { Candidate } from "../candidate.ts";
import { readConfig } from "../../../config.ts";
import { describeGrant, grantFromManifest } from "../permissions/manifest-permissions.ts";
import { variableLines } from "../permissions/passed-variables.ts";
import { passedEnv, userFailurePolicies } from "../permissions/user-policy.ts";
import { trustGate, type TrustGate } from "./gate.ts";
import { trustProject } from "./records.ts";
import { readTrust } from "./store.ts";

/** A project extension waiting for the user's trust, as the question shows it. */
export interface PendingExtension {
  name: string;
  dir: string;
  /** describeGrant's lines: "full access (no permissions declared)" or one line per scope. */
  permissions: string[];
  /** Why it is held back (not trusted, changed, added). */
  reason: string;
  /** Set when trusting it switches off one of the user's fail-closed guards: what it replaces. */
  replaces?: string;
}

export interface HostTrust {
  /** Reads the records (at every load, so a reload sees approvals made meanwhile) for project `cwd`. */
  gate(cwd: string): Promise<TrustGate>;
  /** Asks about project `cwd`'s held-back extensions; true when they were trusted (and recorded). */
  askProject?(pending: Candidate[], cwd: string, replaces?: ReadonlyMap<Candidate, string>): Promise<boolean>;
}

export interface RecordedTrustOptions {
  /** --trust-project: start the project's extensions this run, recording nothing. */
  trustProject?: boolean;
  /** The REPL's question; absent in headless modes, which skip untrusted project extensions. */
  ask?(pending: PendingExtension[]): Promise<boolean>;
}

/**
 * How the question shows `candidate`: its permissions and the variables it would get (`passed`:
 * by config.json), or that it runs no program; `replaces`: the fail-closed guard it would replace.
 */
export function pendingOf(candidate: Candidate, passed: readonly string[] = [], replaces?: string): PendingExtension {
  const manifest = candidate.loaded?.manifest;
  const kind = candidate.loaded?.kind;
  return { name: candidate.name, dir: candidate.dir, reason: candidate.trust?.message ?? "not trusted", ...(replaces ? { replaces } : {}),
    permissions: kind === "theme" || kind === "skills" ? [`a ${kind} bundle: runs no program`]
      : [...describeGrant(grantFromManifest(manifest?.permissions)), ...(manifest ? variableLines(manifest, passed) : [])] };
}

export function recordedTrust(paths: ZotPaths, options: RecordedTrustOptions): HostTrust {
  const ask = options.ask;
  return {
    gate: async (cwd) => trustGate(await readTrust(paths), { cwd, trustProject: options.trustProject, paths }),
    ...(ask ? {
      async askProject(pending: Candidate[], cwd: string, replaces?: ReadonlyMap<Candidate, string>) {
        const policies = userFailurePolicies(await readConfig(paths.config));
        if (!(await ask(pending.map((c) => pendingOf(c, passedEnv(policies, c, cwd), replaces?.get(c)))))) return false;
        await trustProject(paths, cwd, pending.map((c) => ({ manifest: c.loaded!.manifest, dir: c.dir, source: c.source, pinnedDir: c.pinnedDir })), true);
        return true;
      },
    } : {}),
  };
}
