// What discovery decided about one folder (or one server of a project's .mcp.json), in a module
// of its own: the trust gate decides on candidates and discovery records the gate's answer, so
// the type both use sits below both.
import type { LoadedManifest } from "./manifest.ts";

/** Where discovery found a folder: an `--ext` path, the project, or the global root. */
export type DiscoveryScope = "explicit" | "project" | "global";

/** One folder that discovery looked at, and what it decided about it. */
export interface Candidate {
  dir: string;
  scope: DiscoveryScope;
  /** The manifest name; the folder name when the manifest could not be read. */
  name: string;
  /** Absent when the manifest is missing or invalid (see `error`). */
  loaded?: LoadedManifest;
  /**
   * `spawn`: a protocol or MCP extension to start. `bundle`: a theme-only or skill-only bundle (never
   * spawned). `disabled`, `shadowed`: skipped. `error`: the manifest could not be used.
   * `untrusted`: the trust gate held it back (see `trust`).
   */
  decision: "spawn" | "bundle" | "disabled" | "shadowed" | "error" | "untrusted";
  /** Why the trust gate held it back (decision `untrusted`). */
  trust?: TrustProblem;
  error?: string;
  warnings: string[];
  /** For `shadowed`: the folder that claimed the name. */
  shadowedBy?: string;
  /** Set when the candidate comes from a file rather than a folder: the project's `.mcp.json`, a settings file's hooks. */
  source?: string;
  /** For a candidate from a file: the folder whose content trust pins with it (a project's `.claude/hooks`). */
  pinnedDir?: string;
}

/** Why the trust gate held a candidate back. */
export interface TrustProblem {
  /** `project`: the project (or this extension in it) is not trusted; `grant`: a global grant is stale or revoked. */
  kind: "project" | "grant";
  message: string;
}
