// An `index.ts` in lib/ is only a folder's public face: nothing but `export … from` lines, so
// code always lives in a file whose name says what it does. stream-schema/index.ts is the one
// exception still to be split (the event vocabulary is being reworked there).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const NOT_YET = new Set(["lib/modes/stream-schema/index.ts"]);

function indexFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return indexFilesUnder(path);
    return entry.isFile() && entry.name === "index.ts" ? [relative(ROOT, path).split(sep).join("/")] : [];
  });
}

/** The statements of a source text that are not `export … from "…"`, as their first line. */
function statementsBesidesReExports(text: string): string[] {
  const source = ts.createSourceFile("index.ts", text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  return source.statements
    .filter((statement) => !(ts.isExportDeclaration(statement) && statement.moduleSpecifier !== undefined))
    .map((statement) => statement.getText(source).split("\n")[0]!);
}

describe("index.ts files in lib/", () => {
  it("hold only re-exports", () => {
    const offending = indexFilesUnder(join(ROOT, "lib"))
      .filter((file) => !NOT_YET.has(file))
      .flatMap((file) => statementsBesidesReExports(readFileSync(join(ROOT, file), "utf8")).map((line) => `${file}: ${line}`));
    expect(offending, `code in an index.ts (move it to a named file):\n${offending.join("\n")}`).toEqual([]);
  });

  it("the check sees code beside re-exports, and passes re-exports of every form", () => {
    expect(statementsBesidesReExports(`export * from "./a.ts";\nexport type * from "./b.ts";\nexport { c, type D } from "./c.ts";`)).toEqual([]);
    expect(statementsBesidesReExports(`export { a } from "./a.ts";\nimport { b } from "./b.ts";\nexport const c = b;`))
      .toEqual([`import { b } from "./b.ts";`, "export const c = b;"]);
  });
});
