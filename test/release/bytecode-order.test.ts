// The build's bytecode-order recording (release/bytecode-order.ts): a real compiled zot is run the
// ways it usually starts, against the recorder's loopback server, and each run leaves an order file.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordBytecodeOrder } from "../../release/bytecode-order.ts";
import { ROOT } from "../e2e/support.ts";

const work = mkdtempSync(join(tmpdir(), "zot-order-test-"));
const binary = join(work, "zot");

beforeAll(() => {
  const built = spawnSync(join(ROOT, "node_modules", ".bin", "bun"),
    ["build", "bin/zot.ts", "--compile", "--splitting", "--minify", "--bytecode", "--format=esm", `--outfile=${binary}`],
    { cwd: ROOT, encoding: "utf8" });
  if (built.status !== 0) throw new Error(`could not compile zot:\n${built.stderr}`);
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The function entries of an order file (`F <hash>` lines after the `v2` header). */
function functionsIn(file: string): string[] {
  const [header, ...lines] = readFileSync(file, "utf8").trim().split("\n");
  expect(header).toBe("v2");
  return lines.filter((l) => l.startsWith("F "));
}

describe("bytecode order recording", () => {
  it("records one order per start, json first, and a one-shot run uses more functions than --version", async () => {
    const dir = mkdtempSync(join(work, "record-"));
    const files = await recordBytecodeOrder(binary, dir);
    expect(files.map((f) => f.slice(dir.length + 1))).toEqual(["json.order", "print.order", "version.order"]);
    const [json, print, version] = files.map(functionsIn);
    expect(version!.length).toBeGreaterThan(0);
    // The one-shot runs reached the model: they ran the provider and the agent loop as well.
    expect(json!.length).toBeGreaterThan(version!.length);
    expect(print!.length).toBeGreaterThan(version!.length);
  }, 60_000);

  it("a start that fails is an error naming it, so the build can go on without an order", async () => {
    const failing = join(work, "failing");
    writeFileSync(failing, "#!/bin/sh\necho 'no model here' >&2\nexit 3\n");
    chmodSync(failing, 0o755);
    await expect(recordBytecodeOrder(failing, mkdtempSync(join(work, "fail-")))).rejects.toThrow(
      /zot --mode json --no-session review this ended with 3: no model here/);
  });
});
