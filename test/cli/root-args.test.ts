import { describe, expect, it } from "vitest";
import { parseRootArgs, UsageError } from "../../lib/cli/root-args.ts";

describe("invocation: root flags", () => {
  it("collects repeatable -e/--ext in every form, in order", () => {
    const o = parseRootArgs(["-e", "a", "--ext", "b", "--ext=c", "-e=d", "hi"]);
    expect(o.ext).toEqual(["a", "b", "c", "d"]);
    expect(o.prompt).toBe("hi");
  });

  it("collects repeatable --append-system-prompt", () => {
    expect(parseRootArgs(["--append-system-prompt", "x", "--append-system-prompt=y"]).appendSystemPrompt).toEqual(["x", "y"]);
  });

  it("selects modes", () => {
    expect(parseRootArgs([]).mode).toBe("interactive");
    expect(parseRootArgs(["-p", "q"]).mode).toBe("print");
    expect(parseRootArgs(["--json", "q"]).mode).toBe("json");
    expect(parseRootArgs(["--mode", "json", "q"]).mode).toBe("json");
    expect(parseRootArgs(["--mode", "rpc"]).mode).toBe("rpc");
    expect(parseRootArgs(["rpc"]).mode).toBe("rpc");
  });

  it("reads negative flags", () => {
    const o = parseRootArgs(["--no-ext", "--no-session", "--no-tools", "--no-yolo", "--no-skill"]);
    expect(o).toMatchObject({ noExt: true, noSession: true, tools: [], yolo: false, noSkill: true });
    expect(parseRootArgs([]).yolo).toBe(true);
  });

  it("parses flags by citty's rules: a string flag takes the next word, =false turns a boolean off, the last value wins, -- ends flags", () => {
    expect(parseRootArgs(["--model", "--json", "q"])).toMatchObject({ model: "--json", mode: "interactive", prompt: "q" });
    expect(parseRootArgs(["--json=false", "q"]).mode).toBe("interactive");
    expect(parseRootArgs(["--model=a", "--model", "b", "q"]).model).toBe("b");
    expect(parseRootArgs(["-p", "--", "--json", "-c"])).toMatchObject({ mode: "print", prompt: "--json -c", continue: false });
    expect(parseRootArgs(["-c", "-", "two words"])).toMatchObject({ continue: true, prompt: "- two words" });
    expect(() => parseRootArgs(["--model"])).toThrow(/--model needs a value/);
    expect(() => parseRootArgs(["--cwd="])).toThrow(/--cwd needs a value/);
  });

  it("-r takes an id only when the next word looks like one", () => {
    expect(parseRootArgs(["-r"]).resume).toBe(true);
    expect(parseRootArgs(["-r", "2026-11-30-abc"]).resume).toBe("2026-11-30-abc");
    expect(parseRootArgs(["-r", "fix the bug"])).toMatchObject({ resume: true, prompt: "fix the bug" });
    expect(parseRootArgs(["--resume=abc", "go on"])).toMatchObject({ resume: "abc", prompt: "go on" });
  });

  it("refuses unknown flags and bad values with a usage error", () => {
    expect(() => parseRootArgs(["--frobnicate"])).toThrow(UsageError);
    expect(() => parseRootArgs(["--max-steps", "zero"])).toThrow(/max-steps/);
    expect(() => parseRootArgs(["--reasoning", "extreme"])).toThrow(/reasoning/);
    expect(() => parseRootArgs(["--provider", "nosuchcloud"])).toThrow(/provider/);
    expect(() => parseRootArgs(["-e"])).toThrow(/needs a value/);
  });

  it("parses values", () => {
    const o = parseRootArgs(["--provider", "openai", "--model", "m", "--base-url", "http://x", "--max-steps", "3", "--tools", "read, bash", "--cwd", "/tmp", "--jail"]);
    expect(o).toMatchObject({ provider: "openai", model: "m", baseUrl: "http://x", maxSteps: 3, tools: ["read", "bash"], cwd: "/tmp", jail: true });
  });

  it("--listen takes a loopback ws:// URL in rpc mode only; --listen-any allows any host", () => {
    expect(parseRootArgs(["rpc", "--listen", "ws://127.0.0.1:0"]).listen).toMatchObject({ url: new URL("ws://127.0.0.1:0"), any: false });
    expect(parseRootArgs(["--mode", "rpc", "--listen", "ws://[::1]:8765/zot"]).listen?.url.pathname).toBe("/zot");
    expect(parseRootArgs(["rpc", "--listen", "ws://localhost:1"]).listen?.any).toBe(false);
    expect(parseRootArgs(["rpc", "--listen", "ws://0.0.0.0:1", "--listen-any"]).listen?.any).toBe(true);
    expect(() => parseRootArgs(["rpc", "--listen", "ws://0.0.0.0:1"])).toThrow(/only loopback/);
    expect(() => parseRootArgs(["rpc", "--listen", "http://127.0.0.1:1"])).toThrow(/ws:\/\/ URL/);
    expect(() => parseRootArgs(["rpc", "--listen", "nonsense"])).toThrow(UsageError);
    expect(() => parseRootArgs(["--json", "--listen", "ws://127.0.0.1:1", "hi"])).toThrow(/rpc mode/);
    expect(() => parseRootArgs(["rpc", "--listen-any"])).toThrow(/goes with --listen/);
  });
});
