import { describe, expect, it } from "vitest";
import { parseServeArgs } from "../../lib/cli/mcp/serve-args.ts";

describe("zot mcp serve flags", () => {
  it("default: every tool, discovery on, yolo, no jail, no context files", () => {
    expect(parseServeArgs([])).toEqual({
      help: false,
      config: { extensions: { paths: [], discover: true }, skills: { enabled: true, user: false }, yolo: true, jail: false, contextFiles: false },
      selection: { builtins: true, extensionTools: true },
    });
  });

  it("--tools builds only the built-ins it names and offers only the names given", () => {
    const args = parseServeArgs(["--tools", "read, weather", "-e", "a", "--ext=b", "--cwd", "proj", "--jail", "--no-yolo", "--no-ext"]);
    expect(args.config).toMatchObject({ cwd: "proj", tools: ["read"], extensions: { paths: ["a", "b"], discover: false }, yolo: false, jail: true });
    expect(args.selection).toEqual({ only: ["read", "weather"], builtins: true, extensionTools: true });
  });

  it("--no-builtins builds no built-in tool; --no-extension-tools keeps extensions loaded", () => {
    expect(parseServeArgs(["--no-builtins"]).config.tools).toEqual([]);
    const noExtTools = parseServeArgs(["--no-extension-tools"]);
    expect(noExtTools.selection.extensionTools).toBe(false);
    expect(noExtTools.config.extensions).toEqual({ paths: [], discover: true });
  });

  it("refuses unknown flags, missing values, stray arguments and an empty selection", () => {
    expect(() => parseServeArgs(["--model", "x"])).toThrow("unknown option --model (see zot mcp serve --help)");
    expect(() => parseServeArgs(["--cwd"])).toThrow("--cwd needs a value");
    expect(() => parseServeArgs(["--jail=yes"])).toThrow("--jail takes no value");
    expect(() => parseServeArgs(["hello"])).toThrow('unexpected argument "hello"');
    expect(() => parseServeArgs(["--tools", ","])).toThrow("--tools needs at least one tool name");
    expect(() => parseServeArgs(["--no-builtins", "--no-extension-tools"])).toThrow("leaves no tool to offer");
  });
});

describe("zot mcp serve flags through citty", () => {
  it("-e/--ext repeats in every form, in order, and --no-ext still loads them", () => {
    const args = parseServeArgs(["-e", "a", "--ext=b", "-ec", "--no-ext", "-e=d", "--ext", "e"]);
    expect(args.config.extensions).toEqual({ paths: ["a", "b", "c", "d", "e"], discover: false });
  });

  it("--flag=value works for every valued flag; an empty value is a missing value", () => {
    expect(parseServeArgs(["--cwd=proj", "--tools=read"]).config).toMatchObject({ cwd: "proj", tools: ["read"] });
    expect(() => parseServeArgs(["--cwd="])).toThrow("--cwd needs a value");
    expect(() => parseServeArgs(["--ext="])).toThrow("--ext needs a value");
    expect(() => parseServeArgs(["--tools", "--jail"])).toThrow("--tools needs a value (see zot mcp serve --help)");
  });

  it("each negation sets only its own setting", () => {
    const args = parseServeArgs(["--no-yolo", "--no-skill", "--with-skills"]);
    expect(args.config).toMatchObject({ yolo: false, skills: { enabled: false, user: true }, jail: false, extensions: { discover: true } });
    expect(args.selection).toEqual({ builtins: true, extensionTools: true });
  });

  it("only the declared spellings are flags: --builtins, --yolo and bundled short flags are refused", () => {
    expect(() => parseServeArgs(["--builtins"])).toThrow("unknown option --builtins (see zot mcp serve --help)");
    expect(() => parseServeArgs(["--yolo"])).toThrow("unknown option --yolo");
    expect(() => parseServeArgs(["-hx"])).toThrow("unknown option -hx (give short flags separately)");
  });

  it("-- ends the flags and whatever follows is a stray argument", () => {
    expect(() => parseServeArgs(["--", "-e", "x"])).toThrow('unexpected argument "-e" (see zot mcp serve --help)');
    expect(parseServeArgs(["--jail", "--"]).config.extensions).toEqual({ paths: [], discover: true });
  });

  it("-h and --help ask for the help", () => {
    expect(parseServeArgs(["-h"]).help).toBe(true);
    expect(parseServeArgs(["--help"]).help).toBe(true);
  });
});
