// How zot re-invokes itself for a subagent, per runtime (the runtimes e2e test runs each for real).
import { describe, expect, it } from "vitest";
import { selfCommand } from "../../lib/app/subagents/self-command.ts";

describe("selfCommand", () => {
  it("node and bun run the same script with the same runtime flags", () => {
    expect(selfCommand({ argv: ["/usr/bin/node", "/opt/zot/dist/zot.mjs", "-p"], execPath: "/usr/bin/node", execArgv: ["--no-warnings"], versions: {} }))
      .toEqual({ command: "/usr/bin/node", args: ["--no-warnings", "/opt/zot/dist/zot.mjs"] });
  });

  it("a compiled binary is its own entry", () => {
    expect(selfCommand({ argv: ["bun", "/$bunfs/root/zot"], execPath: "/usr/local/bin/zot", execArgv: [], versions: { bun: "1.3.0" } }))
      .toEqual({ command: "/usr/local/bin/zot", args: [] });
    expect(selfCommand({ argv: ["bun", "B:/~BUN/root/zot.exe"], execPath: "C:\\zot\\zot.exe", execArgv: [], versions: { bun: "1.3.0" } }))
      .toEqual({ command: "C:\\zot\\zot.exe", args: [] });
  });

  it("deno, which does not report its flags, runs the script with deno run -A", () => {
    expect(selfCommand({ argv: ["/usr/bin/deno", "/src/zot/bin/zot.ts"], execPath: "/usr/bin/deno", execArgv: [], versions: { deno: "2.5.0" } }))
      .toEqual({ command: "/usr/bin/deno", args: ["run", "-A", "--no-lock", "/src/zot/bin/zot.ts"] });
  });
});
