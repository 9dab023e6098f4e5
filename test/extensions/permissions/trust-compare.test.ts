// When a changed manifest asks for more than the user approved (and so needs approval again).
import { describe, expect, it } from "vitest";
import { widenedScopes } from "../../../lib/extensions/catalog/trust/compare.ts";
import { manifestHash } from "../../../lib/extensions/catalog/trust/store.ts";

describe("widenedScopes", () => {
  it("nothing is more than full access; dropping permissions entirely is full access", () => {
    expect(widenedScopes({ tools: "*", network: "all" }, null)).toEqual([]);
    expect(widenedScopes(undefined, { tools: ["read"] })).toEqual(["full access (it no longer declares permissions)"]);
  });

  it("a new credential variable in permissions.env is more; fewer is not", () => {
    expect(widenedScopes({ network: "none", env: ["A_TOKEN", "B_KEY"] }, { network: "none", env: ["A_TOKEN"] })).toEqual(["env"]);
    expect(widenedScopes({ network: "none" }, { network: "none", env: ["A_TOKEN"] })).toEqual([]);
  });

  it("names lists: a new name or * is more; fewer names is not", () => {
    expect(widenedScopes({ tools: ["read", "bash"] }, { tools: ["read"] })).toEqual(["tools"]);
    expect(widenedScopes({ events: "*" }, { events: ["agent_end"] })).toEqual(["events"]);
    expect(widenedScopes({ tools: [] }, { tools: ["read"] })).toEqual([]);
  });

  it("every declared block is confined to what it lists: new paths and network are more, dropping a scope is not", () => {
    expect(widenedScopes({ tools: [] }, { network: "none" })).toEqual([]);
    expect(widenedScopes({ tools: [], fs: { read: ["{project}"] } }, { tools: [] })).toEqual(["fs read"]);
    expect(widenedScopes({ tools: [], network: "all" }, { tools: [] })).toEqual(["network"]);
    expect(widenedScopes({ fs: { read: ["{project}", "~"] } }, { fs: { read: ["{project}"] } })).toEqual(["fs read"]);
    expect(widenedScopes({ fs: { read: ["{project}/out"] } }, { fs: { write: ["{project}/out"] } })).toEqual([]);
    expect(widenedScopes({ fs: { write: ["{project}"] } }, { fs: { read: ["{project}"] } })).toEqual(["fs write"]);
    expect(widenedScopes({ network: "all" }, { network: ["api.github.com"] })).toEqual(["network"]);
    expect(widenedScopes({ network: ["a.example", "b.example"] }, { network: ["a.example"] })).toEqual(["network"]);
    expect(widenedScopes({ network: "none" }, { network: "all" })).toEqual([]);
  });
});

describe("manifestHash", () => {
  it("does not depend on key order, and changes with any value", () => {
    expect(manifestHash({ name: "a", exec: "x" })).toBe(manifestHash({ exec: "x", name: "a" }));
    expect(manifestHash({ name: "a", exec: "x" })).not.toBe(manifestHash({ name: "a", exec: "y" }));
  });
});
