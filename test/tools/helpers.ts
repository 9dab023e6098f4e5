// Shared test helpers: real temporary folders and a call context with a live AbortSignal.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import type { ToolExecutionContext, ToolOutcome } from "../../lib/tools/types.ts";

const made: string[] = [];

/** A fresh real folder (symlinks resolved, so paths compare cleanly); removed after each test. */
export function tempDir(prefix = "zot-tools-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function context(cwd: string, extra: Partial<ToolExecutionContext> = {}): ToolExecutionContext {
  return { cwd, signal: new AbortController().signal, ...extra };
}

export function textOf(outcome: ToolOutcome): string {
  return outcome.content.map((c) => (c.type === "text" ? c.text : `[image ${c.mime_type}]`)).join("\n");
}
