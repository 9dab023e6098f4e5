import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createBashTool } from "../../lib/tools/bash.ts";
import { context, tempDir, textOf } from "./helpers.ts";
import { processAlive } from "../../lib/process/group.ts";

// A zombie awaiting its reaper counts as gone (some container inits reap late).
const alive = processAlive;

/** Resolves with the first progress line matching `re` (a pid the command printed, say). */
function progressWatcher(re: RegExp) {
  const lines: string[] = [];
  let resolveMatch!: (m: RegExpExecArray) => void;
  const matched = new Promise<RegExpExecArray>((r) => { resolveMatch = r; });
  const onProgress = (line: string) => {
    lines.push(line);
    const m = re.exec(line);
    if (m) resolveMatch(m);
  };
  return { lines, matched, onProgress };
}

describe("bash: running commands", () => {
  it("runs in the cwd and merges stdout and stderr in arrival order", async () => {
    const cwd = tempDir();
    const tool = createBashTool({ cwd });
    const out = await tool.execute({ command: "pwd; sleep 0.1; echo to-err >&2; sleep 0.1; echo to-out" }, context(cwd));
    expect(out.isError).toBeFalsy();
    expect(textOf(out)).toBe(`${cwd}\nto-err\nto-out`);
    expect(out.details).toMatchObject({ exit_code: 0 });
  });

  it("streams whole lines through onProgress", async () => {
    const cwd = tempDir();
    const watch = progressWatcher(/never/);
    await createBashTool({ cwd }).execute({ command: "printf 'a\\nb'; sleep 0.05; printf 'c\\n'; echo e >&2" }, context(cwd, { onProgress: watch.onProgress }));
    expect(watch.lines.sort()).toEqual(["a", "bc", "e"]);
  });

  it("decodes a UTF-8 character split across chunks", async () => {
    const cwd = tempDir();
    const out = await createBashTool({ cwd }).execute({ command: "printf '\\303'; sleep 0.05; printf '\\251\\n'" }, context(cwd));
    expect(textOf(out)).toBe("é");
  });

  it("a non-zero exit is an error carrying the exit code", async () => {
    const cwd = tempDir();
    const out = await createBashTool({ cwd }).execute({ command: "echo failing; exit 3" }, context(cwd));
    expect(out).toMatchObject({ isError: true, status: "failed", details: { exit_code: 3 } });
    expect(textOf(out)).toBe("failing\n\n[Exit code 3]");
  });

  it("a command killed by a signal says which", async () => {
    const cwd = tempDir();
    const out = await createBashTool({ cwd }).execute({ command: "kill -9 $$" }, context(cwd));
    expect(out).toMatchObject({ isError: true, details: { signal: "SIGKILL" } });
    expect(textOf(out)).toContain("[Killed by signal SIGKILL]");
  });

  it("no output is said plainly", async () => {
    const cwd = tempDir();
    expect(textOf(await createBashTool({ cwd }).execute({ command: "true" }, context(cwd)))).toBe("(no output)");
  });

  it("works with sh as the shell", async () => {
    const cwd = tempDir();
    const out = await createBashTool({ cwd, shell: "sh" }).execute({ command: "echo via-sh" }, context(cwd));
    expect(textOf(out)).toBe("via-sh");
  });

  it("bad calls are explained", async () => {
    const cwd = tempDir();
    const tool = createBashTool({ cwd });
    expect(textOf(await tool.execute({}, context(cwd)))).toContain("`command` must be a string");
    expect(textOf(await tool.execute({ command: "  " }, context(cwd)))).toContain("`command` is empty");
    expect(textOf(await tool.execute({ command: "true", timeout: -1 }, context(cwd)))).toContain("`timeout` must be a positive number");
  });

  it("a missing working directory is reported, not thrown", async () => {
    const cwd = join(tempDir(), "gone");
    const out = await createBashTool({ cwd }).execute({ command: "true" }, context(cwd));
    expect(out.isError).toBe(true);
    expect(textOf(out)).toContain("could not start");
  });
});

describe("bash: output cap keeps the tail", () => {
  it("drops early lines and says how much", async () => {
    const cwd = tempDir();
    const out = await createBashTool({ cwd, maxLines: 100 }).execute({ command: "seq 1 5000" }, context(cwd));
    const text = textOf(out);
    const [note, ...rest] = text.split("\n");
    expect(note).toContain("Output truncated: showing the last 100 lines");
    expect(note).toContain("of 5000 lines");
    expect(rest[0]).toBe("4901");
    expect(rest.at(-1)).toBe("5000");
    expect(rest).toHaveLength(100);
    expect(out.details).toMatchObject({ truncated: true, total_lines: 5000 });
  });

  it("caps by bytes too", async () => {
    const cwd = tempDir();
    const out = await createBashTool({ cwd, maxBytes: 1000 }).execute({ command: "seq 1 100000" }, context(cwd));
    const rest = textOf(out).split("\n").slice(1);
    expect(Buffer.byteLength(rest.join("\n"))).toBeLessThanOrEqual(1000);
    expect(rest.at(-1)).toBe("100000");
    expect(Number(rest[0]) + rest.length - 1).toBe(100000); // whole lines, contiguous to the end
  });
});

describe("bash: timeouts, cancellation, and nothing left running", () => {
  it("times out with status timed_out (default from the factory)", async () => {
    const cwd = tempDir();
    const out = await createBashTool({ cwd, timeoutMs: 200 }).execute({ command: "echo started; sleep 30" }, context(cwd));
    expect(out).toMatchObject({ isError: true, status: "timed_out" });
    expect(textOf(out)).toContain("started");
    expect(textOf(out)).toContain("Timed out after 0.2 s");
  });

  it("the call's timeout (seconds) overrides the default", async () => {
    const cwd = tempDir();
    const out = await createBashTool({ cwd }).execute({ command: "sleep 30", timeout: 0.2 }, context(cwd));
    expect(out.status).toBe("timed_out");
  });

  it("cancel kills the whole process group, background grandchildren included", async () => {
    const cwd = tempDir();
    const ac = new AbortController();
    const watch = progressWatcher(/^pids (\d+) (\d+)$/);
    const running = createBashTool({ cwd }).execute(
      { command: "sleep 300 & echo pids $$ $!; wait" },
      context(cwd, { signal: ac.signal, onProgress: watch.onProgress }),
    );
    const m = await watch.matched;
    const [shellPid, grandchild] = [Number(m[1]), Number(m[2])];
    expect(alive(grandchild)).toBe(true);
    ac.abort();
    const out = await running;
    expect(out).toMatchObject({ isError: true, status: "cancelled" });
    expect(alive(shellPid)).toBe(false);
    expect(alive(grandchild)).toBe(false);
  });

  it("escalates to SIGKILL when the group ignores SIGTERM", async () => {
    const cwd = tempDir();
    const ac = new AbortController();
    const watch = progressWatcher(/^pid (\d+)$/);
    const running = createBashTool({ cwd, killGraceMs: 100 }).execute(
      { command: "trap '' TERM; sleep 300 & echo pid $!; wait" },
      context(cwd, { signal: ac.signal, onProgress: watch.onProgress }),
    );
    const grandchild = Number((await watch.matched)[1]);
    ac.abort();
    expect((await running).status).toBe("cancelled");
    expect(alive(grandchild)).toBe(false);
  });

  it("background jobs do not outlive a command that finished", async () => {
    const cwd = tempDir();
    const tool = createBashTool({ cwd });
    // One job keeps the output pipe open, one does not; neither may keep the call waiting or survive it.
    const out = await tool.execute({ command: "sleep 300 & echo a $!; sleep 300 >/dev/null 2>&1 & echo b $!" }, context(cwd));
    expect(out.isError).toBeFalsy();
    const pids = [...textOf(out).matchAll(/^[ab] (\d+)$/gm)].map((m) => Number(m[1]));
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(alive(pid)).toBe(false);
  });

  it("an already-aborted call does not start the command", async () => {
    const cwd = tempDir();
    const ac = new AbortController();
    ac.abort();
    const out = await createBashTool({ cwd }).execute({ command: "touch should-not-exist" }, context(cwd, { signal: ac.signal }));
    expect(out.status).toBe("cancelled");
    mkdirSync(join(cwd, "probe"));
    const check = await createBashTool({ cwd }).execute({ command: "ls" }, context(cwd));
    expect(textOf(check)).toBe("probe");
  });

  it("preview shows the first line of the command", () => {
    const tool = createBashTool({ cwd: "/x" });
    expect(tool.preview!({ command: "ls -la" })).toBe("ls -la");
    expect(tool.preview!({ command: "cd x\nmake" })).toBe("cd x …");
  });
});
