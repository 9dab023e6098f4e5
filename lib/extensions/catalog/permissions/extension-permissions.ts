// What one running extension may do, as the host enforces it: its grant (from the manifest),
// the failure policy of each of its interceptors (the manifest's `on_failure`, overridden by the
// user's config.json), and a record of what it asked for and was refused, for the log and
// `zot ext doctor`.
import type { Manifest } from "../manifest.ts";
import { eventsGuardedWhenAbsent, namedInterceptEvents } from "./absent-guards.ts";
import {
  explicitFailurePolicy, grantFromManifest, isGranted, type FailurePolicy, type ManifestPermissions, type OnFailure,
  type PermissionGrant, type UiGrant,
} from "./manifest-permissions.ts";

export type RefusalKind = "tools" | "events" | "intercept" | "ui";
/** Where an interceptor's failure policy comes from. */
export type FailurePolicySource = "config" | "manifest" | "default";

/** The `ui` grant a frame needs, by frame type; frames not listed need none. */
const UI_FRAMES: Readonly<Record<string, UiGrant>> = {
  notify: "notes", clear_notes: "notes", submit: "submit", panel_render: "panels", panel_close: "panels",
};

export function uiGrantOf(frameType: string): UiGrant | undefined {
  return UI_FRAMES[frameType];
}

/** The first refusals are logged in full, then every 1000th: a refused flood must not flood the log. */
const LOGGED_REFUSALS = 20;

export class ExtensionPermissions {
  readonly grant: PermissionGrant;
  /** `permissions` as written in extension.json; undefined: none declared (full access). */
  readonly requested: ManifestPermissions | undefined;
  readonly refused: Record<RefusalKind, Set<string>> = { tools: new Set(), events: new Set(), intercept: new Set(), ui: new Set() };
  private readonly manifestOnFailure: OnFailure | undefined;
  private userOnFailure: OnFailure | undefined;
  private refusals = 0;

  constructor(manifest: Pick<Manifest, "permissions" | "on_failure">, private readonly log: (line: string) => void) {
    this.requested = manifest.permissions;
    this.grant = grantFromManifest(manifest.permissions);
    this.manifestOnFailure = manifest.on_failure;
  }

  /** The user's `extensions.<name>.on_failure` from config.json; it wins over the manifest's. */
  setUserFailurePolicy(onFailure: OnFailure | undefined): void {
    this.userOnFailure = onFailure;
  }

  allowsTool(name: string): boolean {
    return isGranted(this.grant.tools, name);
  }

  allowsEvent(name: string): boolean {
    return isGranted(this.grant.events, name);
  }

  allowsIntercept(name: string): boolean {
    return isGranted(this.grant.intercept, name);
  }

  allowsUi(kind: UiGrant): boolean {
    return isGranted(this.grant.ui, kind);
  }

  failurePolicy(event: string): FailurePolicy {
    return explicitFailurePolicy(this.userOnFailure, event) ?? explicitFailurePolicy(this.manifestOnFailure, event) ?? "allow";
  }

  failurePolicySource(event: string): FailurePolicySource {
    if (explicitFailurePolicy(this.userOnFailure, event) !== undefined) return "config";
    return explicitFailurePolicy(this.manifestOnFailure, event) !== undefined ? "manifest" : "default";
  }

  /**
   * Whether a fail-closed policy covers `event` while this extension cannot answer (it crashed or
   * never got to subscribe): the manifest names the event (in `permissions.intercept` or as a key
   * of `on_failure`), or the user's policy does (see eventsGuardedWhenAbsent).
   */
  declaresIntercept(event: string): boolean {
    if (!this.allowsIntercept(event)) return false;
    const manifest = { permissions: this.requested, on_failure: this.manifestOnFailure };
    if (namedInterceptEvents(manifest).has(event)) return true;
    return this.userOnFailure !== undefined && eventsGuardedWhenAbsent(this.userOnFailure, manifest).has(event);
  }

  /** Records a refused request and logs why (bounded). */
  refuse(kind: RefusalKind, name: string, line: string): void {
    this.refused[kind].add(name);
    this.refusals++;
    if (this.refusals <= LOGGED_REFUSALS || this.refusals % 1000 === 0) this.log(`not permitted: ${line}`);
  }
}
