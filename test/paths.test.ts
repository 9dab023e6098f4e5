// $ZOT_HOME resolution and the files under it, for every platform, on any machine: the functions
// are pure in (env, platform, home).
import { describe, expect, it } from "vitest";

import { cwdKey, extensionLogPath, pathsUnder, projectExtensionsDir, resolveZotHome, zotPaths } from "../lib/paths.ts";

const mac = { platform: "darwin" as const, home: "/Users/pat" };
const linux = { platform: "linux" as const, home: "/home/pat" };
const windows = { platform: "win32" as const, home: "C:\\Users\\pat" };

describe("$ZOT_HOME resolution (ZOT_HOME, else $XDG_STATE_HOME/zot, else the platform default)", () => {
  it("ZOT_HOME wins on every platform, even over XDG_STATE_HOME", () => {
    for (const p of [mac, linux, windows]) {
      expect(resolveZotHome({ ...p, env: { ZOT_HOME: "/custom/zot", XDG_STATE_HOME: "/xdg", LOCALAPPDATA: "L" } }))
        .toBe("/custom/zot");
    }
  });

  it("XDG_STATE_HOME is honoured on any platform, not only Linux", () => {
    expect(resolveZotHome({ ...linux, env: { XDG_STATE_HOME: "/xdg/state" } })).toBe("/xdg/state/zot");
    expect(resolveZotHome({ ...mac, env: { XDG_STATE_HOME: "/xdg/state" } })).toBe("/xdg/state/zot");
    expect(resolveZotHome({ ...windows, env: { XDG_STATE_HOME: "D:\\state", LOCALAPPDATA: "C:\\L" } })).toBe("D:\\state\\zot");
  });

  it("an empty variable counts as unset", () => {
    expect(resolveZotHome({ ...linux, env: { ZOT_HOME: "", XDG_STATE_HOME: "" } })).toBe("/home/pat/.local/state/zot");
  });

  it("defaults to ~/Library/Application Support/zot on macOS", () => {
    expect(resolveZotHome({ ...mac, env: {} })).toBe("/Users/pat/Library/Application Support/zot");
  });

  it("defaults to ~/.local/state/zot on Linux and other POSIX systems", () => {
    expect(resolveZotHome({ ...linux, env: {} })).toBe("/home/pat/.local/state/zot");
    expect(resolveZotHome({ platform: "freebsd", home: "/usr/home/pat", env: {} })).toBe("/usr/home/pat/.local/state/zot");
  });

  it("defaults to %LOCALAPPDATA%\\zot on Windows, or the usual AppData\\Local without it", () => {
    expect(resolveZotHome({ ...windows, env: { LOCALAPPDATA: "C:\\Users\\pat\\AppData\\Local" } }))
      .toBe("C:\\Users\\pat\\AppData\\Local\\zot");
    expect(resolveZotHome({ ...windows, env: {} })).toBe("C:\\Users\\pat\\AppData\\Local\\zot");
  });

  it("zotPaths() binds the rule to the running process's environment", () => {
    expect(zotPaths({ ZOT_HOME: "/tmp/zh" }).home).toBe("/tmp/zh");
  });
});

describe("files under $ZOT_HOME", () => {
  it("places config, auth, models.json, SYSTEM.md, sessions, skills, extensions and logs as the host spec lays out", () => {
    expect(pathsUnder("/z", "linux")).toEqual({
      home: "/z",
      config: "/z/config.json",
      auth: "/z/auth.json",
      models: "/z/models.json",
      systemPrompt: "/z/SYSTEM.md",
      sessions: "/z/sessions",
      skills: "/z/skills",
      extensions: "/z/extensions",
      logs: "/z/logs",
      hostLog: "/z/logs/zot.log",
    });
  });

  it("uses the platform's separator on Windows", () => {
    const paths = pathsUnder("C:\\z", "win32");
    expect(paths.extensions).toBe("C:\\z\\extensions");
    expect(paths.hostLog).toBe("C:\\z\\logs\\zot.log");
  });

  it("an extension's log is logs/ext-<name>.log, with unsafe characters of the name escaped one to one", () => {
    const paths = pathsUnder("/z", "linux");
    expect(extensionLogPath(paths, "weather")).toBe("/z/logs/ext-weather.log");
    expect(extensionLogPath(paths, "../evil name")).toBe("/z/logs/ext-..%2Fevil%20name.log");
    expect(extensionLogPath(paths, "my_ext")).not.toBe(extensionLogPath(paths, "my ext"));
  });

  it("project-local extensions live in <cwd>/.zot/extensions", () => {
    expect(projectExtensionsDir("/work/repo")).toBe("/work/repo/.zot/extensions");
  });

  it("a session folder key is readable, filesystem-safe, bounded and distinct per directory", () => {
    expect(cwdKey("/work/repo")).toMatch(/^work-repo-[0-9a-f]{8}$/);
    expect(cwdKey("C:\\Users\\pat\\repo")).toMatch(/^C-Users-pat-repo-[0-9a-f]{8}$/);
    expect(cwdKey("/")).toMatch(/^root-[0-9a-f]{8}$/);
    expect(cwdKey("/a b/ü")).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(cwdKey("/work/repo")).toBe(cwdKey("/work/repo"));
    // Same readable form, different directories.
    expect(cwdKey("/a/b-c")).not.toBe(cwdKey("/a/b/c"));
    expect(cwdKey("/a b")).not.toBe(cwdKey("/a_b"));
    const deep = `/${"very-long-folder-name/".repeat(40)}repo`;
    expect(cwdKey(deep).length).toBeLessThanOrEqual(89);
    expect(cwdKey(deep)).toMatch(/folder-name-repo-[0-9a-f]{8}$/);
  });
});
