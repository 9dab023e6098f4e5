// The help layout's rules: wrapped lines never pass the width nor end in a space, labels stay
// left-aligned with descriptions in one column, and every word survives the wrapping.
import { describe, expect, it } from "vitest";
import { helpWidth, paragraphs, table, wrap } from "../../lib/cli/help/wrap.ts";

const words = (lines: string[]) => lines.join(" ").split(/\s+/).filter(Boolean);

describe("help wrapping", () => {
  it("wraps at the width with a hanging indent, keeping every word and leaving no trailing space", () => {
    const text = "one two three four five six seven eight nine ten eleven twelve";
    const lines = wrap(text, 20, "> ", "  ");
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(20);
    for (const line of lines) expect(line).not.toMatch(/\s$/);
    expect(lines[0]!.startsWith("> ")).toBe(true);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {2}\S/);
    expect(words(lines).filter((w) => w !== ">")).toEqual(text.split(" "));
  });

  it("cuts a word longer than the line rather than overflowing", () => {
    const url = "https://example.com/a/very/long/path/that/does/not/fit";
    const lines = wrap(url, 16);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(16);
    expect(lines.join("")).toBe(url);
  });

  it("a table puts descriptions in one column; a label too long for it gets a line of its own", () => {
    const lines = table([["-p, --print", "run to completion and print the final assistant text"],
      ["--append-system-prompt <TEXT> and more", "extend"]], 70);
    expect(lines[0]).toMatch(/^ {2}-p, --print +run/);
    const column = lines[0]!.indexOf("run");
    expect(lines[1]!.search(/\S/)).toBe(column);
    expect(lines).toContain("  --append-system-prompt <TEXT> and more");
    expect(lines.at(-1)).toBe(`${" ".repeat(column)}extend`);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(70);
  });

  it("on a narrow screen descriptions go under their labels, and a label wider than the screen wraps", () => {
    const lines = table([["ZOT_AGENT_TIMEOUT_MS, ZOT_AGENT_MAX_PARALLEL", "subagent limits"]], 26);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(26);
    expect(lines).toEqual(["  ZOT_AGENT_TIMEOUT_MS,", "    ZOT_AGENT_MAX_PARALLEL", "          subagent limits"]);
    expect(words(lines)).toEqual(["ZOT_AGENT_TIMEOUT_MS,", "ZOT_AGENT_MAX_PARALLEL", "subagent", "limits"]);
  });

  it("free text keeps `  key  text` rows as rows, wrapped under their text", () => {
    const lines = paragraphs("Templates:\n  ts      TypeScript on the SDK; runs with bun or deno\n  sh      POSIX sh", 30);
    expect(lines[0]).toBe("Templates:");
    expect(lines[1]).toMatch(/^ {2}ts {6}TypeScript/);
    expect(lines[2]).toMatch(/^ {10}\S/);
    expect(lines.at(-1)).toBe("  sh      POSIX sh");
  });

  it("the width is COLUMNS, else the terminal's, else 80", () => {
    expect(helpWidth({ isTTY: true, columns: 120 }, { COLUMNS: "60" })).toBe(60);
    expect(helpWidth({ isTTY: true, columns: 120 }, {})).toBe(120);
    expect(helpWidth({ isTTY: false, columns: 120 }, {})).toBe(80);
    expect(helpWidth({}, { COLUMNS: "wide" })).toBe(80);
  });
});
