// Whether a manifest's permissions ask for more than the ones the user approved: the test that
// decides whether an approved global extension still starts after its manifest changed.
import { grantFromManifest, type ManifestPermissions, type NameGrant, type PermissionGrant } from "../permissions/manifest-permissions.ts";

const namesWiden = (now: NameGrant, approved: NameGrant) =>
  approved !== "all" && (now === "all" || [...now].some((name) => !approved.has(name)));

const someOutside = (paths: string[], allowed: string[]) => paths.some((p) => !allowed.includes(p));

function networkRank(grant: PermissionGrant): number {
  if (grant.network === "all") return 2;
  return Array.isArray(grant.network) && grant.network.length > 0 ? 1 : 0;
}

/** What `now` asks for beyond `approved` (undefined / null: full access), as short phrases; empty: nothing more. */
export function widenedScopes(now: ManifestPermissions | undefined, approved: ManifestPermissions | null | undefined): string[] {
  const a = grantFromManifest(approved ?? undefined);
  const n = grantFromManifest(now);
  if (a.full) return [];
  if (n.full) return ["full access (it no longer declares permissions)"];
  const more: string[] = [];
  if (someOutside(n.env ?? [], a.env ?? [])) more.push("env");
  for (const kind of ["tools", "events", "intercept", "ui"] as const) if (namesWiden(n[kind], a[kind])) more.push(kind);
  // Both are confined to what they list: fs and network are compared as written.
  const read = n.fs?.read ?? [];
  const write = n.fs?.write ?? [];
  if (someOutside(read, [...(a.fs?.read ?? []), ...(a.fs?.write ?? [])])) more.push("fs read");
  if (someOutside(write, a.fs?.write ?? [])) more.push("fs write");
  const nr = networkRank(n);
  const ar = networkRank(a);
  if (nr > ar || (nr === 1 && ar === 1 && someOutside(n.network as string[], a.network as string[]))) more.push("network");
  return more;
}
