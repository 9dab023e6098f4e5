import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDoctorArgs } from "../../lib/cli/ext/doctor.ts";

describe("zot ext doctor flags", () => {
  it("collects repeated -e/--ext in every form, in order, and resolves them against the shell's directory", () => {
    const args = parseDoctorArgs(["-e", "a", "--ext", "b", "--ext=c", "-e=d", "--json", "--cwd=proj"]);
    expect(args).toEqual({ json: true, explicit: ["a", "b", "c", "d"].map((d) => resolve(d)), cwd: resolve("proj") });
    expect(parseDoctorArgs([])).toEqual({ json: false, explicit: [], cwd: process.cwd() });
  });

  it("refuses an unknown flag, a value given to --json, a flag without its value and any positional", () => {
    expect(() => parseDoctorArgs(["--frob"])).toThrow("unknown option --frob");
    expect(() => parseDoctorArgs(["--json=yes"])).toThrow("--json takes no value");
    expect(() => parseDoctorArgs(["--cwd"])).toThrow("--cwd needs a value");
    expect(() => parseDoctorArgs(["-e"])).toThrow("-e needs a value");
    expect(() => parseDoctorArgs(["-e", "--json"])).toThrow("-e needs a value");
    expect(() => parseDoctorArgs(["stray"])).toThrow('unexpected argument "stray"');
  });
});
