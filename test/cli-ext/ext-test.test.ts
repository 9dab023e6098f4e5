// `zot ext test`: the real CLI (dist/zot.mjs) checks real extension processes. The shipped
// examples and every `zot ext new` template conform; each broken fixture (one flaw each, see
// test/fixtures/conformance/flawed.mjs) fails exactly the check about that flaw.
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeSandbox, REPO_ROOT, runZot, writeFiles, type Sandbox } from "./support/cli.ts";

interface Check {
  name: string;
  status: "passed" | "warning" | "failed" | "skipped";
  detail: string;
}
interface Result {
  ok: boolean;
  extension: { name: string; version: string | null; path: string; log_path: string | null };
  checks: Check[];
}

const FIXTURES = join(REPO_ROOT, "test", "fixtures", "conformance");
const EXAMPLES = join(REPO_ROOT, "examples", "extensions");

const sandboxes: Sandbox[] = [];
afterAll(() => sandboxes.forEach((sb) => sb.cleanup()));

/** A fresh sandbox whose PATH has the repo's bun first (the ts template runs under it). */
function sandbox(): Sandbox {
  const sb = makeSandbox();
  sb.env.PATH = `${join(REPO_ROOT, "node_modules", ".bin")}${delimiter}${process.env.PATH ?? ""}`;
  sandboxes.push(sb);
  return sb;
}

async function extTest(sb: Sandbox, dir: string, ...flags: string[]): Promise<{ code: number | null; result: Result }> {
  const run = await runZot(["ext", "test", dir, "--json", ...flags], { cwd: sb.project, env: sb.env });
  expect(run.stderr).toBe("");
  return { code: run.code, result: JSON.parse(run.stdout) as Result };
}

const byName = (result: Result) => Object.fromEntries(result.checks.map((c) => [c.name, c]));
const failed = (result: Result) => result.checks.filter((c) => c.status === "failed");

describe.concurrent("zot ext test: extensions that conform", () => {
  it("the clock example (plain Node): its commands and its tool answer", async () => {
    const sb = sandbox();
    const { code, result } = await extTest(sb, join(EXAMPLES, "clock"));
    expect(failed(result)).toEqual([]);
    expect(code).toBe(0);
    expect(result).toMatchObject({ ok: true, extension: { name: "clock", version: "1.0.0", path: join(EXAMPLES, "clock"),
      log_path: join(sb.home, "logs", "ext-clock.log") } });
    const checks = byName(result);
    for (const name of ["hello", "hello name", "ready", "command /time", "command /timer", "tool now {}", "shutdown", "process group", "stdout"]) {
      expect(checks[name]?.status, name).toBe("passed");
    }
    expect(checks.tool_cancel).toMatchObject({ status: "skipped", detail: "tool_cancel not advertised in hello" });
    expect(existsSync(join(sb.home, "logs", "ext-clock.log"))).toBe(true);
  });

  it("the py-notes example (Python SDK): tools, cancellation, every interceptor and its event", async () => {
    const { code, result } = await extTest(sandbox(), join(EXAMPLES, "py-notes"));
    expect(failed(result)).toEqual([]);
    expect(code).toBe(0);
    const checks = byName(result);
    expect(checks["tool add_note (required args)"]).toMatchObject({ status: "passed", detail: expect.stringContaining('args {"text":"test"}') });
    expect(checks["tool pick_note"]).toMatchObject({ status: "skipped", detail: expect.stringMatching(/^interactive/) });
    expect(checks.tool_cancel?.status).toBe("passed");
    expect(checks["intercept before_agent_start"]).toMatchObject({ status: "passed", detail: expect.stringMatching(/^allow with system_prompt/) });
    expect(checks["intercept tool_call"]?.status).toBe("passed");
    expect(checks["intercept assistant_message"]?.status).toBe("passed");
    expect(checks.events).toMatchObject({ status: "passed", detail: expect.stringContaining("session_start") });
  });

  it("the guard example (POSIX sh): its tool_call interceptor allows `echo hi`", async () => {
    const { code, result } = await extTest(sandbox(), join(EXAMPLES, "guard"));
    expect(failed(result)).toEqual([]);
    expect(code).toBe(0);
    expect(byName(result)["intercept tool_call"]).toMatchObject({ status: "passed", detail: expect.stringMatching(/^allow in \d+ ms$/) });
  });

  it("an extension on each SDK using every intercept_v2 point: each answer is checked and described", async () => {
    for (const sdk of ["ts", "py"]) {
      const { code, result } = await extTest(sandbox(), join(REPO_ROOT, "test", "fixtures", "intercept-v2", sdk));
      expect(failed(result)).toEqual([]);
      expect(code).toBe(0);
      const checks = byName(result);
      expect(checks.capabilities?.detail).toContain("intercept_v2");
      expect(checks["intercept tool_call"]).toMatchObject({ status: "passed", detail: expect.stringMatching(/^allow with additional_context in/) });
      expect(checks["intercept tool_result"]).toMatchObject({ status: "passed", detail: expect.stringMatching(/^allow with additional_context in/) });
      expect(checks["intercept user_prompt_submit"]).toMatchObject({ status: "passed", detail: expect.stringMatching(/^allow with additional_context in/) });
      expect(checks["intercept before_agent_end"]?.status).toBe("passed");
      expect(checks["intercept tool_confirmation"]?.status).toBe("passed");
    }
  });

  for (const lang of ["js", "python", "sh", "ts"]) {
    it(`the ${lang} template right after zot ext new`, async () => {
      const sb = sandbox();
      const made = await runZot(["ext", "new", `demo-${lang}`, "--lang", lang], { cwd: sb.project, env: sb.env });
      expect(made.code, made.stderr).toBe(0);
      const { code, result } = await extTest(sb, join(sb.globalRoot, `demo-${lang}`));
      expect(failed(result)).toEqual([]);
      expect(code).toBe(0);
      const checks = byName(result);
      expect(checks[`command /demo-${lang}`]?.status).toBe("passed");
      if (lang === "sh") return;
      // The SDK templates: a word-count tool with a required text, and tool_cancel support.
      const tool = `demo_${lang}_word_count`;
      expect(checks[`tool ${tool} {}`]).toMatchObject({ status: "passed", detail: expect.stringContaining("(is_error)") });
      expect(checks[`tool ${tool} (required args)`]?.status).toBe("passed");
      expect(checks.tool_cancel?.status).toBe("passed");
    });
  }
});

describe.concurrent("zot ext test: broken extensions fail exactly the right check", () => {
  const cases: Array<[fixture: string, check: string, detail: RegExp]> = [
    ["garbage", "stdout", /^1 of \d+ lines are not valid frames .*line \d+: invalid JSON.*write logs to stderr/],
    ["silent-command", "command /ping", /^no command_response for id "conformance-command-\d+" within 300 ms$/],
    ["wrong-id", "tool echo {}", /^no tool_result for id "conformance-tool-\d+" within 300 ms; got a tool_result for id "not-the-id" instead$/],
    ["ignores-shutdown", "shutdown", /^no shutdown_ack and still running 2000 ms after shutdown; the checker terminated it/],
    ["wrong-name", "hello name", /^hello name "someone-else" does not match the manifest name "wrong-name"/],
    ["leaves-child", "process group", /still running in its process group after it exited; the checker killed it/],
    ["bad-registration", "registrations", /^tool "echo all" would be dropped: a tool name must match \^\[a-zA-Z0-9_-\]\{1,64\}\$ .*\(valid: 1 command; 1 tool; /],
  ];
  for (const [fixture, check, detail] of cases) {
    it(`${fixture}: ${check}`, async () => {
      const { code, result } = await extTest(sandbox(), join(FIXTURES, fixture), "--timeout-ms", "300");
      expect(failed(result)).toEqual([{ name: check, status: "failed", detail: expect.stringMatching(detail) }]);
      expect(result.ok).toBe(false);
      expect(code).toBe(1);
    });
  }
});

describe("zot ext test: the interception additions without intercept_v2 in hello", () => {
  it("warns that zot ignores the point it subscribes to and the fields it answers with", async () => {
    const { code, result } = await extTest(sandbox(), join(FIXTURES, "undeclared-v2"), "--timeout-ms", "300");
    expect(failed(result)).toEqual([]);
    expect(code).toBe(0);
    const checks = byName(result);
    expect(checks.registrations).toMatchObject({ status: "warning", detail: expect.stringContaining('"tool_result" needs "intercept_v2"') });
    expect(checks["intercept turn_start"]).toMatchObject({ status: "warning", detail: expect.stringContaining("additional_context is ignored: say \"intercept_v2\"") });
  });
});

describe.concurrent("zot ext test: output and usage", () => {
  it("prints a readable checklist, the verdict and the log path", async () => {
    const sb = sandbox();
    const run = await runZot(["ext", "test", join(FIXTURES, "none")], { cwd: sb.project, env: sb.env });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toBe(`none 1.0.0  ${join(FIXTURES, "none")}`);
    expect(run.stdout).toMatch(/\n {2}✓ hello {2,}first frame, \d+ ms after start\n/);
    expect(run.stdout).toMatch(/\n {2}✓ tool_cancel {2,}still running after tool_cancel for echo; a tool_result for the cancelled call arrived/);
    expect(run.stdout).toMatch(/\n {2}- tool echo \(required args\) {2,}skipped: its schema requires no properties\n/);
    expect(run.stdout).toMatch(/\n {2}✓ events {2,}still running after 2 events \(session_start, turn_end\)\n/);
    expect(run.stdout).toContain(`\nconforms: 14 passed, 1 skipped\nlog: ${join(sb.home, "logs", "ext-none.log")}\n`);
  });

  it("a folder without a valid manifest or a startable exec fails; usage errors exit 2", async () => {
    const sb = sandbox();
    const { code, result } = await extTest(sb, sb.project);
    expect(code).toBe(1);
    expect(result.checks).toEqual([{ name: "manifest", status: "failed", detail: expect.stringMatching(/extension\.json: cannot read/) }]);
    const missing = join(sb.base, "missing-exec");
    writeFiles(missing, { "extension.json": JSON.stringify({ name: "missing-exec", exec: "./nope" }) });
    const unstartable = await extTest(sb, missing);
    expect(unstartable.code).toBe(1);
    expect(failed(unstartable.result)).toEqual([{ name: "hello", status: "failed",
      detail: expect.stringMatching(/^it could not start \(spawn .*nope ENOENT: .*nope does not exist\) before sending hello$/) }]);
    for (const args of [["ext", "test"], ["ext", "test", join(sb.base, "missing")], ["ext", "test", sb.project, "--timeout-ms", "soon"]]) {
      const run = await runZot(args, { cwd: sb.project, env: sb.env });
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(/^zot: (missing <path>|.*missing: no such folder|--timeout-ms expects a whole number.*"soon")\n/);
    }
  });
});
