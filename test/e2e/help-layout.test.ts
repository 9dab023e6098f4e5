// Help fits the screen: every help text of the real bundle, at the width COLUMNS gives (80 when
// it is unset and stdout is no terminal), with no line past it and no trailing spaces, and
// nothing of a description cut off.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorld, type World } from "./support.ts";
import { PROPER_NOUN } from "../../lib/cli/help/render.ts";

let world: World;
beforeAll(async () => { world = await makeWorld(); });
afterAll(async () => { await world.close(); });

const EXT = ["list", "doctor", "install", "marketplace", "add-url", "update", "remove", "enable", "disable", "trust", "logs", "new", "test", "serve"];
const MCP = ["add", "list", "serve", "remove"];
const HELPS = [["--help"], ["ext", "--help"], ["mcp", "--help"], ["agents", "--help"], ["completion", "--help"],
  ["agents", "prune", "--help"], ["upgrade", "--help"], ["sessions", "--help"], ["sessions", "show", "--help"],
  ...EXT.map((c) => ["ext", c, "--help"]), ...MCP.map((c) => ["mcp", c, "--help"])];

async function help(args: string[], columns?: number): Promise<string> {
  const r = await world.run(args, columns === undefined ? {} : { env: { COLUMNS: String(columns) } });
  expect(r.code, args.join(" ")).toBe(0);
  return r.stdout;
}

/** Lines wider than `width` (in characters) or ending in white space. */
const misfits = (text: string, width: number) => text.split("\n").filter((l) => [...l].length > width || /\s$/.test(l));

describe("help layout", () => {
  it("no help line is wider than COLUMNS or ends in a space, at 80, 60 and 40 columns", async () => {
    for (const width of [80, 60, 40]) {
      const texts = await Promise.all(HELPS.map((args) => help(args, width)));
      texts.forEach((text, i) => expect(misfits(text, width), `${HELPS[i]!.join(" ")} at ${width}`).toEqual([]));
    }
  });

  it("every help table has one capitalisation: descriptions start in lower case", async () => {
    const texts = await Promise.all(HELPS.map((args) => help(args, 200)));
    texts.forEach((text, i) => {
      const rows = text.split("\n").filter((l) => /^ {2}\S.*\S {2,}[A-Z][a-z]+\b/.test(l) && !PROPER_NOUN.test(l.replace(/^ {2}\S.*?\S {2,}/, "")));
      expect(rows, HELPS[i]!.join(" ")).toEqual([]);
    });
  });

  it("the provider list breaks between choices, never inside a provider's name", async () => {
    for (const width of [80, 60]) {
      const text = await help(["--help"], width);
      const list = /<anthropic\|[^>]*>/.exec(text.replace(/\n\s*/g, "\n"))![0];
      for (const row of list.split("\n").slice(0, -1)) expect(row.endsWith("|"), `${row} at ${width}`).toBe(true);
    }
  });

  it("without COLUMNS and without a terminal help is laid out for 80 columns", async () => {
    const text = await help(["--help"]);
    expect(misfits(text, 80)).toEqual([]);
    expect(Math.max(...text.split("\n").map((l) => [...l].length))).toBeGreaterThan(60); // it uses the width, not less
  });

  it("a wider COLUMNS is used: descriptions wrapped at 80 stay on one line at 200", async () => {
    const narrow = await help(["--help"], 80);
    const wide = await help(["--help"], 200);
    expect(wide.split("\n").length).toBeLessThan(narrow.split("\n").length);
    expect(wide).toMatch(/^ {6}--no-sandbox +run extensions that declare fs or network permissions without their OS sandbox$/m);
  });

  it("zot --help has COMMANDS, EXAMPLES and ENVIRONMENT sections, with options left-aligned", async () => {
    const text = await help(["--help"], 80);
    const section = (title: string) => text.split(`\n${title}\n`)[1]!.split("\n\n")[0]!;
    const commands = section("COMMANDS").split("\n").filter((l) => /^ {2}\S/.test(l)).map((l) => l.trim().split(/\s+/)[0]);
    expect(commands).toEqual(expect.arrayContaining(["ext", "mcp", "agents", "login", "logout", "completion", "upgrade"]));
    expect(section("COMMANDS")).toMatch(/^ {2}login +save an API key for a provider \(checked first\)$/m);
    expect(section("COMMANDS")).toMatch(/^ {2}upgrade +replace this binary with the latest release$/m);
    expect(section("EXAMPLES")).toContain("zot -p");
    for (const name of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "ZOT_HOME", "ZOT_MODEL", "ZOT_RPC_TOKEN", "NO_COLOR", "COLUMNS"]) {
      expect(section("ENVIRONMENT")).toContain(name);
    }
    expect(section("OPTIONS")).toMatch(/^ {2}-p, --print +run to completion/m);
    expect(section("OPTIONS")).toMatch(/^ {6}--json +same as --mode json$/m);
  });

  it("zot ext --help and zot mcp --help list every subcommand, with descriptions wrapped rather than cut", async () => {
    const ext = await help(["ext", "--help"], 60);
    const rows = (text: string) => text.split("\nCOMMANDS\n")[1]!.split("\n\n")[0]!.split("\n");
    expect(rows(ext).filter((l) => /^ {2}\S/.test(l)).map((l) => l.trim().split(/\s+/)[0])).toEqual(EXT);
    // The enable row's description ("…sets "enabled": true in its manifest)") wraps, whole.
    const enable = rows(ext).slice(rows(ext).findIndex((l) => l.startsWith("  enable")));
    expect(enable.slice(0, 2).map((l) => l.trim()).join(" ")).toContain('(sets "enabled": true in its manifest)');
    const mcp = await help(["mcp", "--help"], 60);
    expect(rows(mcp).filter((l) => /^ {2}\S/.test(l)).map((l) => l.trim().split(/\s+/)[0])).toEqual(MCP);
  });

  it("a subcommand's long argument description is wrapped under itself, every word kept", async () => {
    const text = await help(["ext", "install", "--help"], 60);
    const argument = text.split("\nARGUMENTS\n")[1]!.split("\n\n")[0]!;
    const lines = argument.split("\n");
    expect(lines[0]).toMatch(/^ {2}SOURCE {2}NAME@MARKETPLACE/);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {10}\S/);
    expect(argument.replace(/\s+/g, " ")).toContain("or an https://….tar.gz URL)");
  });
});
