import { describe, expect, it } from "vitest";
import { checkManifest, ManifestError } from "../../../lib/extensions/catalog/manifest.ts";
import {
  describeGrant, expandFsPath, failurePolicyFor, grantFromManifest, isGranted, needsSandbox,
} from "../../../lib/extensions/catalog/permissions/manifest-permissions.ts";

const load = (extra: object) => checkManifest("/ext/x", { name: "x", exec: "./x", ...extra }, false);

describe("manifest permissions", () => {
  it("a manifest without permissions keeps full access", () => {
    const grant = grantFromManifest(load({}).manifest.permissions);
    expect(grant.full).toBe(true);
    expect(isGranted(grant.tools, "bash")).toBe(true);
    expect(needsSandbox(grant)).toBe(false);
    expect(describeGrant(grant)).toEqual(["full access (no permissions declared)"]);
  });

  it("declared permissions grant only what they list; an omitted kind grants nothing", () => {
    const grant = grantFromManifest(load({ permissions: { tools: ["read"], events: "*" } }).manifest.permissions);
    expect(grant.full).toBe(false);
    expect(isGranted(grant.tools, "read")).toBe(true);
    expect(isGranted(grant.tools, "bash")).toBe(false);
    expect(isGranted(grant.events, "turn_end")).toBe(true);
    expect(isGranted(grant.intercept, "tool_call")).toBe(false);
    expect(isGranted(grant.ui, "panels")).toBe(false);
    expect(describeGrant(grant)).toEqual(["tools: read", "events: all", "intercept: none", "ui: none"]);
  });

  it("fs or network scopes put the process in a sandbox", () => {
    expect(needsSandbox(grantFromManifest(load({ permissions: { network: "none" } }).manifest.permissions))).toBe(true);
    const grant = grantFromManifest(load({ permissions: { fs: { read: ["{project}"] } } }).manifest.permissions);
    expect(grant.fs).toEqual({ read: ["{project}"], write: [] });
    expect(needsSandbox(grant)).toBe(true);
  });

  it("a malformed permissions field is a manifest error that names the field", () => {
    expect(() => load({ permissions: { ui: ["everything"] } })).toThrow(ManifestError);
    expect(() => load({ permissions: { ui: ["everything"] } })).toThrow(/permissions\.ui/);
    expect(() => load({ permissions: { network: 3 } })).toThrow(/permissions\.network/);
    expect(() => load({ permissions: { shell: true } })).toThrow(ManifestError);
    expect(() => load({ on_failure: "deny" })).toThrow(/on_failure/);
  });

  it("on_failure defaults to allow and may be set per event", () => {
    expect(failurePolicyFor(undefined, "tool_call")).toBe("allow");
    expect(failurePolicyFor("block", "turn_start")).toBe("block");
    const perEvent = load({ on_failure: { tool_call: "block" } }).manifest.on_failure;
    expect(failurePolicyFor(perEvent, "tool_call")).toBe("block");
    expect(failurePolicyFor(perEvent, "turn_start")).toBe("allow");
  });

  it("fs placeholders expand only at the start of a path", () => {
    const values = { extension: "/e", project: "/p", temp: "/t", data: "/d", home: "/h" };
    expect(expandFsPath("{project}/src", values)).toBe("/p/src");
    expect(expandFsPath("~/.cache", values)).toBe("/h/.cache");
    expect(expandFsPath("/etc/{project}", values)).toBe("/etc/{project}");
  });
});
