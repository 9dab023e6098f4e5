// The TypeScript SDK's reference, written from its source: the options of `createExtension`,
// every public method of `Extension` and every helper `mod.ts` exports for command and tool
// results, each with its signature and its doc comment.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const SDK = join(import.meta.dirname, "..", "..", "lib", "sdk");

function parse(file: string): ts.SourceFile {
  const path = join(SDK, file);
  return ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
}

/** A node's doc comment, on one line. */
function docOf(node: ts.Node): string {
  const text = ts.getJSDocCommentsAndTags(node).map((d) => (typeof d.comment === "string" ? d.comment : "")).join(" ");
  return text.replace(/\s+/g, " ").trim().replaceAll("|", "\\|");
}

/** The names the SDK's index exports (what `@zot-cli/zot` offers). */
function exportedNames(): Set<string> {
  const names = new Set<string>();
  parse("index.ts").forEachChild((node) => {
    if (ts.isExportDeclaration(node) && node.exportClause && ts.isNamedExports(node.exportClause)) {
      for (const element of node.exportClause.elements) names.add(element.name.text);
    }
  });
  return names;
}

const params = (node: ts.SignatureDeclaration) => node.parameters.map((p) => p.getText().replace(/\s+/g, " ")).join(", ");
const isPublic = (node: ts.ClassElement) => !(ts.getCombinedModifierFlags(node as ts.Declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected));
const table = (head: string, rows: string[]) => [`| ${head} | what it does |`, "|---|---|", ...rows].join("\n");

function extensionMethods(): string {
  const rows: string[] = [];
  parse("extension.ts").forEachChild((node) => {
    if (!ts.isClassDeclaration(node) || node.name?.text !== "Extension") return;
    for (const member of node.members) {
      if (!isPublic(member) || !member.name || !ts.isIdentifier(member.name)) continue;
      if (ts.isMethodDeclaration(member)) rows.push(`| \`ext.${member.name.text}(${params(member)})\` | ${docOf(member)} |`);
      else if (ts.isGetAccessor(member)) rows.push(`| \`ext.${member.name.text}\` | ${docOf(member)} |`);
    }
  });
  return table("method", rows);
}

function options(): string {
  const rows: string[] = [];
  parse("extension.ts").forEachChild((node) => {
    if (!ts.isInterfaceDeclaration(node) || node.name.text !== "ExtensionOptions") return;
    for (const member of node.members) {
      if (ts.isPropertySignature(member) && member.name && ts.isIdentifier(member.name)) {
        rows.push(`| \`${member.name.text}${member.questionToken ? "?" : ""}\` | ${docOf(member)} |`);
      }
    }
  });
  return table("option", rows);
}

function helpers(file: string): string {
  const rows: string[] = [];
  const offered = exportedNames();
  parse(file).forEachChild((node) => {
    const exported = ts.canHaveModifiers(node) && ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (exported && ts.isFunctionDeclaration(node) && node.name && offered.has(node.name.text)) rows.push(`| \`${node.name.text}(${params(node)})\` | ${docOf(node)} |`);
  });
  return table("function", rows);
}

export function sdkSections(): Record<string, string> {
  return { "sdk-options": options(), "sdk-methods": extensionMethods(), "sdk-responses": helpers("responses.ts"), "sdk-results": helpers("results.ts") };
}
