// dist/types for the npm package: the .d.ts of mod.ts and of what they reach, and nothing that
// names a package the npm user does not have. tsc declares every module mod.ts imports at run
// time, but only those the declarations themselves reach are kept (the rest name provider SDKs).
// The one package they still name is valibot (streamSchema's schemas): its single declaration
// file is copied in as vendor/valibot.d.ts, so type-checking against zot needs nothing installed.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

const SPECIFIER = /(from\s+|import\()(["'])([^"']+)\2/g;

/** Writes `<root>/dist/types`; `tsc` runs tsc with the given arguments from `root`. */
export function writePackageTypes(root: string, tsc: (argv: string[]) => void): void {
  const types = join(root, "dist", "types");
  rmSync(types, { recursive: true, force: true });
  tsc(["-p", "tsconfig.types.json"]);
  const vendored = join(types, "vendor", "valibot.d.ts");
  const files = readdirSync(types, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".d.ts")).map((f) => join(types, f));
  for (const path of files) writeFileSync(path, rewriteSpecifiers(readFileSync(path, "utf8"), path, vendored));
  const reached = reachedFrom(join(types, "mod.d.ts"));
  for (const path of files) if (!reached.has(path)) rmSync(path);
  removeEmptyFolders(types);

  const valibot = join(root, "node_modules", "valibot");
  const { version } = JSON.parse(readFileSync(join(valibot, "package.json"), "utf8")) as { version: string };
  mkdirSync(dirname(vendored), { recursive: true });
  writeFileSync(vendored, `// valibot ${version} (MIT License, Fabian Hiller, https://valibot.dev): its type declarations, vendored.\n`
    + readFileSync(join(valibot, "dist", "index.d.mts"), "utf8"));
}

/** `./x.ts` → `./x.js` (what Node resolution maps to `./x.d.ts`), `valibot` → the vendored copy. */
function rewriteSpecifiers(text: string, path: string, vendored: string): string {
  return text.replace(SPECIFIER, (whole, lead: string, quote: string, spec: string) => {
    if (spec === "valibot") {
      const rel = relative(dirname(path), vendored.replace(/\.d\.ts$/, ".js")).split(sep).join("/");
      return `${lead}${quote}${rel.startsWith(".") ? rel : `./${rel}`}${quote}`;
    }
    if (/^\.{1,2}\//.test(spec) && spec.endsWith(".ts")) return `${lead}${quote}${spec.slice(0, -3)}.js${quote}`;
    return whole;
  });
}

/** The declaration files `entry` imports, directly or not (relative specifiers only). */
function reachedFrom(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    for (const m of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
      const spec = m[3]!;
      if (!/^\.{1,2}\//.test(spec)) continue;
      const base = join(dirname(file), spec.replace(/\.js$/, ""));
      queue.push(existsSync(`${base}.d.ts`) ? `${base}.d.ts` : join(base, "index.d.ts"));
    }
  }
  return seen;
}

function removeEmptyFolders(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const sub = join(dir, entry.name);
    removeEmptyFolders(sub);
    if (readdirSync(sub).length === 0) rmSync(sub, { recursive: true });
  }
}
