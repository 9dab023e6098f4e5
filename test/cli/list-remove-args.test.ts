import { describe, expect, it } from "vitest";
import { parseListArgs } from "../../lib/cli/mcp/list.ts";
import { parseRemoveArgs } from "../../lib/cli/mcp/remove.ts";

describe("zot mcp list flags", () => {
  it("reads --json and --cwd in both its forms; the default is a table of the current project", () => {
    expect(parseListArgs([])).toEqual({ json: false });
    expect(parseListArgs(["--json", "--cwd", "proj"])).toEqual({ json: true, cwd: "proj" });
    expect(parseListArgs(["--cwd=proj"])).toEqual({ json: false, cwd: "proj" });
  });

  it("refuses an unknown flag, a value given to --json, --cwd without a value and any positional", () => {
    expect(() => parseListArgs(["--frob"])).toThrow("unknown option --frob");
    expect(() => parseListArgs(["-x"])).toThrow("unknown option -x");
    expect(() => parseListArgs(["--json=yes"])).toThrow("--json takes no value");
    expect(() => parseListArgs(["--cwd"])).toThrow("--cwd needs a value");
    expect(() => parseListArgs(["files"])).toThrow('unexpected argument "files"');
  });
});

describe("zot mcp remove flags", () => {
  it("takes NAME, --project or --global as its scope, and --cwd in both its forms", () => {
    expect(parseRemoveArgs(["files"])).toEqual({ name: "files" });
    expect(parseRemoveArgs(["--project", "files", "--cwd=proj"])).toEqual({ name: "files", scope: "project", cwd: "proj" });
    expect(parseRemoveArgs(["files", "--global", "--cwd", "proj"])).toEqual({ name: "files", scope: "global", cwd: "proj" });
  });

  it("refuses a missing NAME, a second NAME, an unknown flag and --project with --global", () => {
    expect(() => parseRemoveArgs([])).toThrow("missing <name>");
    expect(() => parseRemoveArgs(["--project"])).toThrow("missing <name>");
    expect(() => parseRemoveArgs(["files", "web"])).toThrow('unexpected argument "web"');
    expect(() => parseRemoveArgs(["files", "--yes"])).toThrow("unknown option --yes");
    expect(() => parseRemoveArgs(["files", "--project", "--global"])).toThrow("--project and --global exclude each other");
  });
});
