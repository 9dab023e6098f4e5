// The result of `zot ext test`: a checklist, one entry per check, and its two renderings (a
// human checklist and the `--json` object `{ok, extension, checks}`).

/** `warning` passes (the exit code stays 0) but tells the author something worth fixing. */
export type CheckStatus = "passed" | "warning" | "failed" | "skipped";

export interface ConformanceCheck {
  /** Stable and unique within one run, e.g. `hello`, `command /time`, `intercept tool_call`. */
  name: string;
  status: CheckStatus;
  /** One line: why it passed, failed or was skipped. */
  detail: string;
}

/** Written out as is by `--json`, hence snake_case. */
export interface ConformanceResult {
  /** true when no check failed (warnings and skips allowed). */
  ok: boolean;
  extension: {
    /** The manifest name, or the folder name when the manifest cannot be read. */
    name: string;
    version: string | null;
    path: string;
    /** Where its stderr went; null when it was never started. */
    log_path: string | null;
  };
  checks: ConformanceCheck[];
}

/** Collects checks in the order they ran; a check may be amended later (late observations). */
export class Checklist {
  readonly checks: ConformanceCheck[] = [];

  add(name: string, status: CheckStatus, detail: string): ConformanceCheck {
    const check = { name, status, detail: foldDetail(detail) };
    this.checks.push(check);
    return check;
  }

  pass(name: string, detail: string): ConformanceCheck {
    return this.add(name, "passed", detail);
  }

  warn(name: string, detail: string): ConformanceCheck {
    return this.add(name, "warning", detail);
  }

  fail(name: string, detail: string): ConformanceCheck {
    return this.add(name, "failed", detail);
  }

  skip(name: string, detail: string): ConformanceCheck {
    return this.add(name, "skipped", detail);
  }

  get ok(): boolean {
    return !this.checks.some((c) => c.status === "failed");
  }
}

/** Details are one line by contract: multi-line extension output is folded, long output cut. */
function foldDetail(text: string): string {
  const folded = text.replace(/\s*\n\s*/g, " ⏎ ").trim();
  return folded.length > 300 ? `${folded.slice(0, 300)}…` : folded;
}

const MARK: Record<CheckStatus, string> = { passed: "✓", warning: "!", failed: "✗", skipped: "-" };

/** The human checklist, ending with a count per status and the log path. */
export function renderConformance(result: ConformanceResult): string {
  const { extension } = result;
  const width = Math.min(32, Math.max(...result.checks.map((c) => c.name.length), 0));
  const lines = [`${extension.name}${extension.version ? ` ${extension.version}` : ""}  ${extension.path}`, ""];
  for (const check of result.checks) {
    lines.push(`  ${MARK[check.status]} ${check.name.padEnd(width)}  ${check.status === "skipped" ? "skipped: " : ""}${check.detail}`);
  }
  const count = (s: CheckStatus) => result.checks.filter((c) => c.status === s).length;
  const summary = (["passed", "warning", "failed", "skipped"] as const)
    .filter((s) => count(s) > 0)
    .map((s) => `${count(s)} ${s === "warning" ? (count(s) === 1 ? "warning" : "warnings") : s}`)
    .join(", ");
  lines.push("", `${result.ok ? "conforms" : "does not conform"}: ${summary}`);
  if (extension.log_path) lines.push(`log: ${extension.log_path}`);
  return `${lines.join("\n")}\n`;
}
