// The CI and release workflows cannot run here, so their structure is checked: parsed as YAML
// (by Bun's parser) and read for the triggers, the steps in order and the actions they use.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../e2e/support.ts";

interface Step { uses?: string; run?: string; name?: string; with?: Record<string, unknown> }
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, { "runs-on": string; strategy?: { matrix: { os: string[] } }; steps: Step[] }>;
}

function load(name: string): Workflow {
  const file = join(ROOT, ".github", "workflows", name);
  const script = "process.stdout.write(JSON.stringify(Bun.YAML.parse(require('node:fs').readFileSync(process.argv[1], 'utf8'))))";
  return JSON.parse(execFileSync(join(ROOT, "node_modules", ".bin", "bun"), ["-e", script, file], { encoding: "utf8" }));
}

const runs = (steps: Step[]) => steps.flatMap((s) => (s.run ? [s.run] : []));
/** Only GitHub's own actions, each pinned to a major version. */
const WELL_KNOWN = /^actions\/(checkout|setup-node|setup-python)@v\d+$/;

describe("workflows", () => {
  it("ci runs npm ci then npm test on Linux and macOS for pushes and pull requests", () => {
    const ci = load("ci.yml");
    expect(Object.keys(ci.on).sort()).toEqual(["pull_request", "push"]);
    const [job, ...others] = Object.values(ci.jobs);
    expect(others).toEqual([]);
    expect(job!.strategy!.matrix.os).toEqual(["ubuntu-latest", "macos-latest"]);
    expect(job!["runs-on"]).toBe("${{ matrix.os }}");
    expect(runs(job!.steps)).toEqual(["npm ci", "npm test"]);
    for (const s of job!.steps) if (s.uses) expect(s.uses).toMatch(WELL_KNOWN);
    expect(job!.steps.find((s) => s.uses?.startsWith("actions/setup-node"))!.with).toMatchObject({ "node-version": 20 });
  });

  it("release runs on version tags: tests, builds, checks every artifact, then attaches dist/release to the release", () => {
    const release = load("release.yml");
    expect(release.on).toEqual({ push: { tags: ["v*"] } });
    expect(release.permissions).toEqual({ contents: "write" });
    const steps = release.jobs.release!.steps;
    const commands = runs(steps);
    const order = ["npm ci", "npm test", "npm run release", "npm run release:check"].map((c) => commands.indexOf(c));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const attach = commands.at(-1)!;
    expect(attach).toContain("gh release");
    expect(attach).toContain("dist/release/*");
    // release:check's arm64 run needs these before it starts.
    expect(commands.find((c) => c.includes("apt-get install"))).toContain("qemu-user libc6-arm64-cross libstdc++6-arm64-cross");
    expect(commands.findIndex((c) => c.includes("apt-get install"))).toBeLessThan(commands.indexOf("npm run release:check"));
    for (const s of steps) if (s.uses) expect(s.uses).toMatch(WELL_KNOWN);
  });
});
