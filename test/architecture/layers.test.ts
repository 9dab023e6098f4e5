// The layering the README's Development map states, checked on the source: `lib/` has no import
// cycle, the extension system's three layers import downward only (host → runtime → catalog),
// the agent loop imports no session code, lib/coding/ imports nothing above it, and only the
// driver map knows the drivers. A failure names the offending cycle or edge.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importCycles, importGraph, specifiersOf, type ImportGraph } from "./import-graph.ts";

const ROOT = join(import.meta.dirname, "..", "..");

/** The extension layers, lowest first: each may import the ones before it, never one after it. */
const LAYERS = ["catalog", "runtime", "host"] as const;
const LAYER_ROOT = "lib/extensions/";

function layerOf(file: string): number | undefined {
  if (!file.startsWith(LAYER_ROOT)) return undefined;
  const index = LAYERS.indexOf(file.slice(LAYER_ROOT.length).split("/")[0] as (typeof LAYERS)[number]);
  return index === -1 ? undefined : index;
}

/** Every import from a file under `from` into a file under `into`, as a readable line. */
function importsInto(graph: ImportGraph, from: string, into: string): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    if (!file.startsWith(from)) continue;
    for (const target of targets) if (target.startsWith(into)) found.push(`${file} → ${target}`);
  }
  return found.sort();
}

/** Every import that points from a lower layer up into a higher one, as a readable line. */
function upwardImports(graph: ImportGraph): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    const from = layerOf(file);
    if (from === undefined) continue;
    for (const target of targets) {
      const to = layerOf(target);
      if (to !== undefined && to > from) found.push(`${file} → ${target} (${LAYERS[from]}/ may not import ${LAYERS[to]}/)`);
    }
  }
  return found.sort();
}

const graph = importGraph(ROOT, "lib");

describe("lib/ import graph", () => {
  it("has no import cycle", () => {
    const cycles = importCycles(graph).map((cycle) => cycle.join(" → "));
    expect(cycles, `import cycles in lib/:\n${cycles.join("\n")}`).toEqual([]);
  });

  it("holds the three extension layers, each with files", () => {
    for (const layer of LAYERS) {
      const files = [...graph.keys()].filter((file) => file.startsWith(`${LAYER_ROOT}${layer}/`));
      expect(files.length, `${LAYER_ROOT}${layer}/ has no .ts file`).toBeGreaterThan(0);
    }
  });

  it("catalog/ imports neither runtime/ nor host/, and runtime/ does not import host/", () => {
    const upward = upwardImports(graph);
    expect(upward, `imports that point up a layer:\n${upward.join("\n")}`).toEqual([]);
  });

  it("only the driver map reaches into a driver: the host sees every kind through ExtensionDriver", () => {
    const driverFolders = ["lib/extensions/runtime/protocol/", "lib/extensions/runtime/mcp/"];
    const inDriver = (file: string) => driverFolders.some((dir) => file.startsWith(dir));
    const reaching = [...graph].flatMap(([file, targets]) => inDriver(file) || file === "lib/extensions/runtime/drivers.ts" ? []
      : [...targets].filter(inDriver).map((target) => `${file} → ${target}`));
    expect(reaching, `imports of a driver's internals:\n${reaching.join("\n")}`).toEqual([]);
  });

  it("the agent loop imports no session code (what both share lives in lib/agent/contracts/)", () => {
    const found = importsInto(graph, "lib/agent/loop/", "lib/agent/session/");
    expect(found, `lib/agent/loop/ imports lib/agent/session/:\n${found.join("\n")}`).toEqual([]);
  });

  it("lib/agent/contracts/ imports neither the loop nor the session it sits between", () => {
    const found = ["lib/agent/loop/", "lib/agent/session/"].flatMap((into) => importsInto(graph, "lib/agent/contracts/", into));
    expect(found, `lib/agent/contracts/ imports an implementation:\n${found.join("\n")}`).toEqual([]);
  });

  it("lib/coding/ (system prompt, context files, skills) holds files and imports no cli, app or mode code", () => {
    expect([...graph.keys()].some((file) => file.startsWith("lib/coding/")), "lib/coding/ has no .ts file").toBe(true);
    const found = ["lib/cli/", "lib/app/", "lib/modes/"].flatMap((into) => importsInto(graph, "lib/coding/", into));
    expect(found, `lib/coding/ imports a layer above it:\n${found.join("\n")}`).toEqual([]);
  });
});

describe("the checker itself", () => {
  it("reads static, type-only, re-exported and dynamic imports, and import types", () => {
    const text = [
      `import { a } from "./a.ts";`,
      `import type { B } from "./b.ts";`,
      `export { c } from "./c.ts";`,
      `export * from "./d.ts";`,
      `const e = await import("./e.ts");`,
      `let f: import("./f.ts").F;`,
      `import "./g.ts";`,
    ].join("\n");
    expect(specifiersOf("x.ts", text).sort()).toEqual(["./a.ts", "./b.ts", "./c.ts", "./d.ts", "./e.ts", "./f.ts", "./g.ts"]);
  });

  it("ignores imports written inside strings and comments (generated code, examples)", () => {
    const text = "// import { x } from \"./comment.ts\";\nconst code = `import { y } from \"./template.ts\";`;\nconst s = 'import(\"./string.ts\")';";
    expect(specifiersOf("x.ts", text)).toEqual([]);
  });

  it("names each cycle as the path that closes it", () => {
    const cyclic: ImportGraph = new Map([
      ["a.ts", new Set(["b.ts"])], ["b.ts", new Set(["c.ts"])], ["c.ts", new Set(["a.ts"])],
      ["d.ts", new Set(["a.ts"])], ["e.ts", new Set(["e.ts"])],
    ]);
    expect(importCycles(cyclic).sort()).toEqual([["a.ts", "b.ts", "c.ts", "a.ts"], ["e.ts", "e.ts"]]);
  });

  it("names each import from one folder into another with both files", () => {
    const reaching: ImportGraph = new Map([
      ["lib/agent/loop/a.ts", new Set(["lib/agent/session/b.ts", "lib/agent/contracts/c.ts"])],
      ["lib/agent/session/b.ts", new Set(["lib/agent/loop/a.ts"])],
    ]);
    expect(importsInto(reaching, "lib/agent/loop/", "lib/agent/session/")).toEqual(["lib/agent/loop/a.ts → lib/agent/session/b.ts"]);
  });

  it("names an upward import with both files and both layers", () => {
    const upward: ImportGraph = new Map([
      ["lib/extensions/catalog/x.ts", new Set(["lib/extensions/runtime/y.ts", "lib/paths.ts"])],
      ["lib/extensions/host/z.ts", new Set(["lib/extensions/catalog/x.ts"])],
    ]);
    expect(upwardImports(upward)).toEqual([
      "lib/extensions/catalog/x.ts → lib/extensions/runtime/y.ts (catalog/ may not import runtime/)",
    ]);
  });
});
