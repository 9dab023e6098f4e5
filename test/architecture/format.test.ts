// The format check: every TypeScript file the repository tracks ends with a newline, has LF line
// endings, no trailing whitespace and no tab indentation (the code is indented with spaces), so a
// diff shows only what changed. `npm test` runs it, so CI does.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..", "..");
const tracked = execFileSync("git", ["-C", ROOT, "ls-files", "-z", "*.ts", "*.mts", "*.mjs"], { encoding: "utf8" }).split("\0")
  .filter((f) => f !== "" && !f.startsWith("test/fixtures/claude-plugins/"));

describe("format", () => {
  it("every tracked TypeScript and JavaScript file ends with a newline, uses LF, and has no trailing whitespace or tab indentation", () => {
    const problems: string[] = [];
    for (const file of tracked) {
      const text = readFileSync(join(ROOT, file), "utf8");
      if (text !== "" && !text.endsWith("\n")) problems.push(`${file}: no newline at the end`);
      if (text.includes("\r\n")) problems.push(`${file}: CRLF line endings`);
      text.split("\n").forEach((line, i) => {
        if (/[ \t]+$/.test(line)) problems.push(`${file}:${i + 1}: trailing whitespace`);
        if (/^\t/.test(line)) problems.push(`${file}:${i + 1}: indented with a tab`);
      });
    }
    expect(tracked.length).toBeGreaterThan(100);
    expect(problems).toEqual([]);
  });
});
