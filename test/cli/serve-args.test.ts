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
