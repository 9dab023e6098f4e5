// A guard as a PreToolUse hook in Claude Code's format (a process per tool call) against the
// same check as a zot extension (one process for the session, an intercept_v2-free tool_call
// interceptor), both in POSIX sh and both through zot's real extension host with its default
// isolation, measured in the same run: the time zot spends deciding one tool call, allowed and
// refused. A benchmark, not a test: it prints numbers and asserts no speed.
//   node_modules/.bin/bun bench/hooks.ts [calls=300]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventBus } from "../lib/agent/event-bus.ts";
import { ExtensionHost } from "../lib/extensions/host/host.ts";
import { extensionDrivers } from "../lib/extensions/runtime/drivers.ts";
import { pathsUnder } from "../lib/paths.ts";
import { percentile, timeCalls } from "./timing.ts";

const CALLS = Number(process.argv[2] ?? 300);
if (!Number.isInteger(CALLS) || CALLS < 1) throw new Error(`calls must be a positive integer, got ${process.argv[2]}`);
const FIXTURES = join(import.meta.dirname, "fixtures");

async function host(home: string, explicit: string[], sandbox = true): Promise<ExtensionHost> {
  const project = join(home, "project");
  mkdirSync(project, { recursive: true });
  return ExtensionHost.start({
    drivers: extensionDrivers, cwd: project, paths: pathsUnder(home), explicit, discover: explicit.length === 0,
    agent: { bus: new EventBus({ id: "bench", cwd: project }), info: () => ({ provider: "none", model: "none" }) },
    interactive: false, sandbox: { enabled: sandbox },
  });
}

async function measure(label: string, h: ExtensionHost): Promise<{ label: string; allow: number[]; refuse: number[] }> {
  const decide = (command: string, expectBlock: boolean) => async (i: number) => {
    const verdict = await h.interceptToolCall({ toolId: `t${i}`, toolName: "bash", toolArgs: { command } });
    if (verdict.block !== expectBlock) throw new Error(`${label}: ${command} was ${verdict.block ? "refused" : "allowed"}`);
  };
  const allow = await timeCalls(decide("ls -la", false), CALLS, 20);
  const refuse = await timeCalls(decide("rm -rf build", true), CALLS, 20);
  return { label, allow, refuse };
}

const root = mkdtempSync(join(tmpdir(), "zot-bench-hooks-"));
try {
  const hookHome = join(root, "hook");
  mkdirSync(hookHome, { recursive: true });
  writeFileSync(join(hookHome, "config.json"), JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash",
    hooks: [{ type: "command", command: `sh ${join(FIXTURES, "hook-guard.sh")}` }] }] } }));
  const hooked = await host(hookHome, []);
  const unsandboxed = await host(hookHome, [], false);
  const extension = await host(join(root, "ext"), [join(FIXTURES, "guard-ext")]);
  try {
    const rows = [await measure("PreToolUse command hook", hooked), await measure("  the same, --no-sandbox", unsandboxed),
      await measure("zot extension guard", extension)];
    const base = rows[2]!;
    console.log(`\nA guard deciding one bash call (${CALLS} calls each, sequential; median / p95 in ms; ratio of medians to the extension)`);
    for (const row of rows) {
      const cell = (times: number[], baseline: number[]) =>
        `${percentile(times, 0.5).toFixed(2)} / ${percentile(times, 0.95).toFixed(2)} (${(percentile(times, 0.5) / percentile(baseline, 0.5)).toFixed(1)}×)`;
      console.log(`  ${row.label.padEnd(26)} allowed ${cell(row.allow, base.allow).padEnd(26)} refused ${cell(row.refuse, base.refuse)}`);
    }
    const isolation = hooked.reports().find((r) => r.name === "user-hooks")?.isolation;
    console.log(`  hook processes: ${isolation?.pid_namespace ? "each in a PID namespace of its own (bubblewrap)" : "each in a process group of its own"}`);
  } finally {
    await Promise.all([hooked.shutdown(), unsandboxed.shutdown(), extension.shutdown()]);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
