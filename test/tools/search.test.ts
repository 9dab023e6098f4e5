// glob and grep, each rule with ripgrep and with the JavaScript fallback (rgPath: null), on real
// temporary trees; and the fallback chosen when PATH has no rg.
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGlobTool } from "../../lib/tools/glob.ts";
import { createGrepTool } from "../../lib/tools/grep.ts";
import { findRipgrep } from "../../lib/tools/search-files.ts";
import { context, tempDir, textOf } from "./helpers.ts";

const RG = findRipgrep();

/** A small project: sources at two depths, a hidden folder, node_modules, and a file with two matches. */
function project(): string {
  const cwd = tempDir();
  const file = (rel: string, text: string, mtime: number) => {
    mkdirSync(join(cwd, rel, ".."), { recursive: true });
    writeFileSync(join(cwd, rel), text);
    utimesSync(join(cwd, rel), mtime, mtime);
  };
  file("src/app.ts", "export const app = 1;\n// TODO: tidy\nconsole.log(app);\n", 1000);
  file("src/util/strings.ts", "export function upper(s: string) {\n  return s.toUpperCase();\n}\n", 3000);
  file("README.md", "# Demo\nTodo list below\n", 2000);
  file("notes.txt", "nothing here\n", 500);
  file(".hidden/secret.ts", "export const app = 'hidden';\n", 4000);
  file("node_modules/dep/index.ts", "export const app = 'dep';\n", 4000);
  return cwd;
}

describe.each([{ name: "ripgrep", rgPath: RG }, { name: "the JavaScript fallback", rgPath: null }])("glob and grep with $name", ({ rgPath }) => {
  it("ripgrep is installed for these tests (CI installs it)", () => {
    expect(RG).not.toBeNull();
  });

  it("glob lists matching files newest first, skipping hidden folders and node_modules; a pattern without / matches at any depth", async () => {
    const cwd = project();
    const glob = createGlobTool({ cwd, rgPath });
    expect(textOf(await glob.execute({ pattern: "**/*.ts" }, context(cwd)))).toBe("src/util/strings.ts\nsrc/app.ts");
    expect(textOf(await glob.execute({ pattern: "*.ts" }, context(cwd)))).toBe("src/util/strings.ts\nsrc/app.ts");
    expect(textOf(await glob.execute({ pattern: "*.{md,txt}" }, context(cwd)))).toBe("README.md\nnotes.txt");
    expect(textOf(await glob.execute({ pattern: "*.ts", path: "src/util" }, context(cwd)))).toBe("src/util/strings.ts");
    expect(textOf(await glob.execute({ pattern: "*.rs" }, context(cwd)))).toBe("No files match *.rs.");
  });

  it("glob caps what it shows and says how many more there are", async () => {
    const cwd = project();
    expect(textOf(await createGlobTool({ cwd, rgPath, maxResults: 1 }).execute({ pattern: "*.ts" }, context(cwd))))
      .toBe("src/util/strings.ts\n[1 more not shown: narrow the pattern or the path]");
  });

  it("grep lists the files that match by default, and counts or shows lines with numbers and context", async () => {
    const cwd = project();
    const grep = createGrepTool({ cwd, rgPath });
    expect(textOf(await grep.execute({ pattern: "app" }, context(cwd)))).toBe("src/app.ts");
    expect(textOf(await grep.execute({ pattern: "app", output_mode: "count" }, context(cwd)))).toBe("src/app.ts:2");
    expect(textOf(await grep.execute({ pattern: "TODO", output_mode: "content", "-n": true }, context(cwd)))).toBe("src/app.ts:2:// TODO: tidy");
    expect(textOf(await grep.execute({ pattern: "TODO", output_mode: "content", "-n": true, "-A": 1 }, context(cwd))))
      .toBe("src/app.ts:2:// TODO: tidy\nsrc/app.ts-3-console.log(app);");
  });

  it("grep -i ignores case; glob and type filter files; path narrows the search, to one file too", async () => {
    const cwd = project();
    const grep = createGrepTool({ cwd, rgPath });
    expect(textOf(await grep.execute({ pattern: "todo", "-i": true }, context(cwd)))).toBe("README.md\nsrc/app.ts");
    expect(textOf(await grep.execute({ pattern: "todo", "-i": true, glob: "*.md" }, context(cwd)))).toBe("README.md");
    expect(textOf(await grep.execute({ pattern: "todo", "-i": true, type: "md" }, context(cwd)))).toBe("README.md");
    expect(textOf(await grep.execute({ pattern: "upper", path: "src/util" }, context(cwd)))).toBe("src/util/strings.ts");
    expect(textOf(await grep.execute({ pattern: "upper", path: "src/util/strings.ts", output_mode: "content" }, context(cwd))))
      .toBe("src/util/strings.ts:export function upper(s: string) {");
  });

  it("grep multiline lets a pattern span lines; head_limit shows fewer lines", async () => {
    const cwd = project();
    const grep = createGrepTool({ cwd, rgPath });
    expect(textOf(await grep.execute({ pattern: "string\\) \\{\\n\\s+return", multiline: true }, context(cwd)))).toBe("src/util/strings.ts");
    expect(textOf(await grep.execute({ pattern: ".", output_mode: "content", head_limit: 1, path: "src/app.ts" }, context(cwd))))
      .toBe("src/app.ts:export const app = 1;\n[2 more lines not shown]");
  });

  it("grep's type names ripgrep's file types: ts covers .tsx, rust means .rs", async () => {
    const cwd = project();
    writeFileSync(join(cwd, "view.tsx"), "export const app = <div/>;\n");
    writeFileSync(join(cwd, "lib.rs"), "fn app() {}\n");
    const grep = createGrepTool({ cwd, rgPath });
    expect(textOf(await grep.execute({ pattern: "app", type: "ts" }, context(cwd)))).toBe("src/app.ts\nview.tsx");
    expect(textOf(await grep.execute({ pattern: "app", type: "rust" }, context(cwd)))).toBe("lib.rs");
  });

  it("a line longer than the line cap is cut, and the output stops at its byte cap with a count of what it hides", async () => {
    const cwd = project();
    writeFileSync(join(cwd, "min.js"), `var app=${"x".repeat(10_000)};\n`);
    const grep = createGrepTool({ cwd, rgPath });
    const long = textOf(await grep.execute({ pattern: "var app", output_mode: "content" }, context(cwd)));
    expect(long).toBe(`min.js:var app=${"x".repeat(2000 - "min.js:var app=".length)}… [${10_000 + "min.js:var app=;".length - 2000} more characters]`);
    writeFileSync(join(cwd, "many.txt"), Array.from({ length: 50 }, (_, i) => `line ${i} ${"y".repeat(90)}`).join("\n"));
    const capped = textOf(await createGrepTool({ cwd, rgPath, maxBytes: 1000 }).execute({ pattern: "line", output_mode: "content", path: "many.txt" }, context(cwd)));
    expect(Buffer.byteLength(capped)).toBeLessThan(1100);
    expect(capped.split("\n")[0]).toMatch(/^many\.txt:line 0 y+$/);
    expect(capped).toMatch(/\n\[4[0-9] more lines not shown\]$/);
  });

  it("a folder in a git repository's .gitignore is not searched", async () => {
    const cwd = project();
    mkdirSync(join(cwd, ".git"));
    mkdirSync(join(cwd, "build"));
    writeFileSync(join(cwd, "build", "out.ts"), "export const app = 'built';\n");
    writeFileSync(join(cwd, "debug.log"), "app\n");
    writeFileSync(join(cwd, ".gitignore"), "# generated\nbuild/\n*.log\n");
    expect(textOf(await createGlobTool({ cwd, rgPath }).execute({ pattern: "**/*.ts" }, context(cwd)))).toBe("src/util/strings.ts\nsrc/app.ts");
    expect(textOf(await createGrepTool({ cwd, rgPath }).execute({ pattern: "app" }, context(cwd)))).toBe("src/app.ts");
  });

  it("under jail a path outside the working directory is refused", async () => {
    const cwd = project();
    const out = await createGrepTool({ cwd, rgPath, jail: true }).execute({ pattern: "x", path: "/etc" }, context(cwd));
    expect(out.isError).toBe(true);
    expect(textOf(out)).toMatch(/outside|jail/);
  });
});

describe("without ripgrep on PATH", () => {
  it("the tools find none and use the JavaScript search, even after ripgrep was found on an earlier PATH", async () => {
    expect(findRipgrep("/nonexistent-bin")).toBeNull();
    expect(findRipgrep()).not.toBeNull();
    const cwd = project();
    const saved = process.env.PATH;
    process.env.PATH = mkdtempSync(join(tmpdir(), "zot-no-rg-"));
    try {
      // A lookahead is a JavaScript expression ripgrep refuses without -P: only the fallback answers it.
      const out = await createGrepTool({ cwd }).execute({ pattern: "app(?= =)", output_mode: "content" }, context(cwd));
      expect(textOf(out)).toBe("src/app.ts:export const app = 1;");
    } finally {
      process.env.PATH = saved;
    }
    expect(findRipgrep()).toBe(RG);
  });
});
