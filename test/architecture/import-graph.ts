// The import graph of a source tree, read with TypeScript's parser (so imports quoted inside
// template literals, such as the extension templates' code, are not mistaken for real ones):
// static `import`/`export … from`, dynamic `import("…")` and `import("…")` types. Only relative
// specifiers that resolve to a `.ts` file of the tree become edges; packages and other files
// (an imported `.py` text) are not part of the layering.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

/** File → the files it imports; every path relative to the root, with `/` separators. */
export type ImportGraph = Map<string, Set<string>>;

function tsFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFilesUnder(path);
    return entry.isFile() && path.endsWith(".ts") ? [path] : [];
  });
}

/** Every module specifier of one source text, static, re-exported and dynamic. */
export function specifiersOf(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier
      && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [first] = node.arguments;
      if (first && ts.isStringLiteralLike(first)) found.push(first.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)
      && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The `.ts` file a relative specifier names (written with `.ts`, `.js` or no extension), if any. */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const tries = [base, `${base}.ts`, base.replace(/\.js$/, ".ts"), join(base, "index.ts")];
  return tries.find((path) => path.endsWith(".ts") && isFile(path));
}

/** The graph of every `.ts` file under `root/dir`, with the edges that stay inside it. */
export function importGraph(root: string, dir: string): ImportGraph {
  const toKey = (path: string) => relative(root, path).split(sep).join("/");
  const files = tsFilesUnder(join(root, dir));
  const keys = new Set(files.map(toKey));
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const targets = new Set<string>();
    for (const specifier of specifiersOf(file, readFileSync(file, "utf8"))) {
      if (!specifier.startsWith(".")) continue;
      const target = resolveRelative(file, specifier);
      if (target && keys.has(toKey(target))) targets.add(toKey(target));
    }
    graph.set(toKey(file), targets);
  }
  return graph;
}

/**
 * One cycle per strongly connected component of more than one file (or a file that imports
 * itself), each written as the path that closes it: `[a, b, a]`. Tarjan's algorithm, iterative
 * so a deep import chain cannot overflow the stack.
 */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; targets: string[]; at: number }> = [];
    const enter = (node: string) => {
      index.set(node, next);
      low.set(node, next++);
      stack.push(node);
      onStack.add(node);
      work.push({ node, targets: [...(graph.get(node) ?? [])], at: 0 });
    };
    enter(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      if (frame.at < frame.targets.length) {
        const target = frame.targets[frame.at++]!;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || graph.get(frame.node)?.has(frame.node)) components.push(component);
    }
  }
  return components.map((component) => cyclePath(graph, component));
}

/** A shortest path from the component's first file (in name order) back to itself. */
function cyclePath(graph: ImportGraph, component: string[]): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of [...(graph.get(node) ?? [])].sort()) {
      if (!members.has(target)) continue;
      if (target === start) {
        const between: string[] = [];
        for (let at = node; at !== start; at = cameFrom.get(at)!) between.unshift(at);
        return [start, ...between, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}
