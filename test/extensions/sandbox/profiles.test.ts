// The sandbox plans and the command lines and profiles generated from them (macOS's
// sandbox-exec cannot run here, so its profile is checked as text).
import { describe, expect, it } from "vitest";
import { grantFromManifest } from "../../../lib/extensions/catalog/permissions/manifest-permissions.ts";
import { bwrapArgs } from "../../../lib/extensions/runtime/sandbox/bwrap.ts";
import { planSandbox, type SandboxContext } from "../../../lib/extensions/runtime/sandbox/plan.ts";
import { seatbeltProfile } from "../../../lib/extensions/runtime/sandbox/seatbelt.ts";

const context: SandboxContext = {
  dir: "/ext/notes", dataDir: "/zot/extension-data/notes", project: "/work/proj", temp: "/tmp", home: "/home/pat",
  programs: ["/usr/bin/node", "/opt/tools/python/bin/python3"], sdkDirs: ["/zot/sdk/python"],
};
const SYSTEM = ["/usr", "/etc"];

describe("sandbox plans", () => {
  it("read-only: system, interpreter installation, SDK, its folder and fs.read; read-write: data folder and fs.write", () => {
    const plan = planSandbox(grantFromManifest({ fs: { read: ["{project}", "~/.config/notes"], write: ["{project}/out", "{temp}"] } }), context, SYSTEM);
    expect(plan.readOnly).toEqual(["/usr", "/etc", "/opt/tools/python", "/zot/sdk/python", "/ext/notes", "/work/proj", "/home/pat/.config/notes"]);
    expect(plan.readWrite).toEqual(["/zot/extension-data/notes", "/work/proj/out", "/tmp"]);
    expect(plan.network).toBe(false);
  });

  it("network is granted only by \"all\"; a host list is not enforced, so it means no network, and says so", () => {
    expect(planSandbox(grantFromManifest({ network: "all" }), context, SYSTEM).network).toBe(true);
    expect(planSandbox(grantFromManifest({ network: "none" }), context, SYSTEM).network).toBe(false);
    const listed = planSandbox(grantFromManifest({ network: ["api.github.com"] }), context, SYSTEM);
    expect(listed.network).toBe(false);
    expect(listed.warnings.join("\n")).toContain("network lists hosts (api.github.com), which zot's sandbox cannot enforce");
  });

  it("a program whose installation folder would be ~/.local, the home folder or hold $ZOT_HOME is mounted alone, as is zot's bun", () => {
    const plan = planSandbox(grantFromManifest({ network: "none" }), {
      ...context, programs: ["/home/pat/.local/bin/python3", "/home/pat/tools/bin/tool"], files: ["/home/pat/bin/zot"],
      privateDirs: ["/home/pat/tools/zot-state"],
    }, SYSTEM);
    expect(plan.readOnly).toEqual(["/usr", "/etc", "/home/pat/.local/bin/python3", "/home/pat/tools/bin/tool", "/home/pat/bin/zot",
      "/zot/sdk/python", "/ext/notes"]);
  });

  it("a relative fs path without a placeholder is ignored with a warning", () => {
    const plan = planSandbox(grantFromManifest({ fs: { read: ["data"] } }), context, SYSTEM);
    expect(plan.readOnly).not.toContain("data");
    expect(plan.warnings).toEqual(['fs path "data" is neither absolute nor starts with a placeholder; ignored']);
  });
});

describe("bubblewrap command line", () => {
  it("drops every capability in a user namespace, unshares PID, IPC and network, has a session of its own, dies with zot, and mounts read-write paths after read-only ones", () => {
    const plan = { readOnly: ["/usr", "/"], readWrite: ["/"], network: false, cwd: "/", warnings: [], hidden: { files: [], dirs: [] }, masked: [] };
    const args = bwrapArgs(plan, "/usr/bin/node", ["main.js"], { tempGranted: false, systemPaths: [] });
    expect(args.slice(0, 9)).toEqual(["--unshare-user", "--cap-drop", "ALL", "--unshare-pid", "--unshare-ipc", "--die-with-parent", "--new-session",
      "--unshare-net", "--dev"]);
    expect(args.indexOf("--ro-bind")).toBeLessThan(args.indexOf("--bind"));
    expect(args).toContain("--tmpfs");
    expect(args.slice(-3)).toEqual(["--", "/usr/bin/node", "main.js"]);
  });

  it("keeps the network namespace when network is allowed", () => {
    const plan = { readOnly: [], readWrite: [], network: true, cwd: "/", warnings: [], hidden: { files: [], dirs: [] }, masked: [] };
    expect(bwrapArgs(plan, "/bin/sh", [], { tempGranted: true, systemPaths: [] })).not.toContain("--unshare-net");
  });
});

describe("sandbox-exec profile", () => {
  const plan = planSandbox(grantFromManifest({ fs: { read: ["{project}"], write: ["{project}/out"] }, network: "none" }), context, ["/usr", "/System"]);

  it("denies by default, reads only the plan's paths and writes only its read-write ones", () => {
    const profile = seatbeltProfile(plan);
    expect(profile.startsWith("(version 1)\n(deny default)\n")).toBe(true);
    const read = profile.slice(profile.indexOf("(allow file-read*"), profile.indexOf("(allow file-write*"));
    const write = profile.slice(profile.indexOf("(allow file-write*"));
    for (const path of ["/usr", "/System", "/ext/notes", "/work/proj", "/zot/extension-data/notes"]) expect(read).toContain(`(subpath "${path}")`);
    expect(write).toContain('(subpath "/work/proj/out")');
    expect(write).toContain('(subpath "/zot/extension-data/notes")');
    expect(write).not.toContain('(subpath "/ext/notes")');
    expect(write).not.toContain('(subpath "/usr")');
  });

  it("allows the network only when granted", () => {
    expect(seatbeltProfile(plan)).not.toContain("(allow network");
    expect(seatbeltProfile({ ...plan, network: true })).toContain("(allow network*)");
  });

  it("escapes quotes and backslashes in paths", () => {
    expect(seatbeltProfile({ ...plan, readOnly: ['/odd "dir"\\x'] })).toContain('(subpath "/odd \\"dir\\"\\\\x")');
  });
});
