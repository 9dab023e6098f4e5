import { describe, expect, it } from "vitest";
import { parseAddArgs } from "../../lib/cli/mcp/add.ts";

describe("zot mcp add flags", () => {
  it("keeps everything after -- verbatim as the server's command, even zot's own flags", () => {
    const args = parseAddArgs(["files", "--", "node", "server.js", "--env", "X=1", "-e", "--help", "--", "--url", "u"]);
    expect(args).toMatchObject({ name: "files", command: ["node", "server.js", "--env", "X=1", "-e", "--help", "--", "--url", "u"], env: {} });
  });

  it("--env and -e repeat in every form and collect KEY=VALUE pairs", () => {
    const args = parseAddArgs(["db", "--env", "A=1", "--env=B=2=3", "-e", "C= 4 ", "-eD=5", "--", "db-mcp"]);
    expect(args.env).toEqual({ A: "1", B: "2=3", C: "4", D: "5" });
  });

  it("--header and -H repeat and take KEY=VALUE or Name: value", () => {
    const args = parseAddArgs(["web", "--url=http://127.0.0.1:9/mcp", "-H", "Authorization: Bearer x", "--header=X-Team=core"]);
    expect(args).toMatchObject({ url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer x", "X-Team": "core" }, command: [] });
    expect(() => parseAddArgs(["web", "--url", "http://x", "--header", "novalue"])).toThrow('--header expects KEY=VALUE, got "novalue"');
  });

  it("--project, --cwd and --no-prefix are read; the default is global with prefixed tools", () => {
    expect(parseAddArgs(["a", "--", "x"])).toMatchObject({ project: false, prefix: true });
    expect(parseAddArgs(["a", "--project", "--no-prefix", "--cwd=proj", "--", "x"])).toMatchObject({ project: true, prefix: false, cwd: "proj" });
    expect(() => parseAddArgs(["a", "--project", "--global", "--", "x"])).toThrow("--project and --global exclude each other");
  });

  it("refuses unknown flags, a missing name, stray arguments before -- and an unclear server", () => {
    expect(() => parseAddArgs(["a", "--prefix", "--", "x"])).toThrow("unknown option --prefix");
    expect(() => parseAddArgs(["a", "--project=yes", "--", "x"])).toThrow("--project takes no value");
    expect(() => parseAddArgs(["a", "--url"])).toThrow("--url needs a value");
    expect(() => parseAddArgs(["--", "x"])).toThrow("missing <name>");
    expect(() => parseAddArgs(["a", "npx", "--", "x"])).toThrow('unexpected argument "npx" (put the server\'s command after --)');
    expect(() => parseAddArgs(["a", "--url", "http://x", "--", "x"])).toThrow("give either --url or -- COMMAND, not both");
    expect(() => parseAddArgs(["a"])).toThrow("missing the server");
    expect(() => parseAddArgs(["a", "--env", "A=1", "--url", "http://x"])).toThrow("--env is for stdio servers");
    expect(() => parseAddArgs(["a", "-H", "A=1", "--", "x"])).toThrow("--header is for HTTP servers");
  });
});
