// The trust gate of discovery: which candidates may start, from one reading of trust.json.
// - `--ext` paths: always (the user asked for them by path).
// - Global extensions: as today, unless a recorded grant went stale (the manifest now asks for
//   more than was approved) or was revoked.
// - Project-local ones (and any other kind discovery finds in the project): only when the user
//   trusted this project and its record pins this very manifest (same hash).
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import type { Candidate } from "../host/discovery.ts";
import { widenedScopes } from "./compare.ts";
import { manifestHash, type TrustFile } from "./store.ts";

export interface TrustProblem {
  /** `project`: the project (or this extension in it) is not trusted; `grant`: a global grant is stale or revoked. */
  kind: "project" | "grant";
  message: string;
}

/** Decides one candidate; undefined: it may start. */
export type TrustGate = (candidate: Candidate) => TrustProblem | undefined;

export function projectKey(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return resolve(cwd);
  }
}

export const PROJECT_TRUST_HINT = "review it and run `zot ext trust --project` (or pass --trust-project for this run)";

export interface GateOptions {
  cwd: string;
  /** --trust-project: this run starts the project's extensions without a record. */
  trustProject?: boolean;
}

export function trustGate(trust: TrustFile, options: GateOptions): TrustGate {
  const project = trust.projects[projectKey(options.cwd)];
  return (candidate) => {
    if (candidate.scope === "explicit" || !candidate.loaded) return undefined;
    // Hashed only against a record: a run without recorded grants never loads node:crypto.
    const hash = () => manifestHash(candidate.loaded!.manifest);
    if (candidate.scope === "project") {
      if (options.trustProject) return undefined;
      const record = project?.extensions[candidate.name];
      if (record && record.manifest_sha256 === hash()) return undefined;
      const why = !project ? "this project has not been trusted"
        : record ? "its extension.json changed since you trusted this project" : "it was added after you trusted this project";
      return { kind: "project", message: `project extension "${candidate.name}" is not started: ${why}; ${PROJECT_TRUST_HINT}` };
    }
    const record = trust.extensions[candidate.name];
    if (!record) return undefined; // placed by hand: it starts with what its manifest declares
    const approve = `run \`zot ext trust ${candidate.name}\` to approve it`;
    if (record.revoked) return { kind: "grant", message: `needs approval: its grant was revoked; ${approve}` };
    if (record.manifest_sha256 === hash()) return undefined;
    const more = widenedScopes(candidate.loaded.manifest.permissions, record.permissions);
    if (more.length === 0) return undefined;
    return { kind: "grant", message: `needs approval: its extension.json now asks for more than you approved (${more.join(", ")}); review it and ${approve}` };
  };
}
