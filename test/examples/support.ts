// Shared by the example tests: where the examples live and `zot ext doctor --json` on one.
import { join } from "node:path";
import { expect } from "vitest";
import { ROOT, type World } from "../e2e/support.ts";

export const EXAMPLES = join(ROOT, "examples", "extensions");

/** One extension's entry in host.md's `zot ext doctor --json` report. */
export interface DoctorEntry {
  name: string;
  status: string;
  ready: string | null;
  commands: string[];
  tools: Array<{ name: string; deferred: boolean; interactive: boolean }>;
  subscriptions: { events: string[]; intercept: string[] };
  errors: string[];
  warnings: string[];
}

/** Runs `zot ext doctor --json -e <dir>` and returns the example's entry, which must be ok. */
export async function doctor(world: World, dir: string): Promise<DoctorEntry> {
  const r = await world.run(["ext", "doctor", "--json", "-e", dir]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const report = JSON.parse(r.stdout) as { ok: boolean; extensions: DoctorEntry[] };
  expect(report.ok).toBe(true);
  expect(report.extensions).toHaveLength(1);
  const entry = report.extensions[0]!;
  expect(entry).toMatchObject({ status: "ok", ready: "ready", errors: [], warnings: [] });
  return entry;
}
