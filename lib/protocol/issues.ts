// Turns valibot issues into one message that names the offending field path.
import type * as v from "valibot";

export function issuePath(issue: v.BaseIssue<unknown>): string {
  return (issue.path ?? []).map((p) => String((p as { key: unknown }).key)).join(".");
}

export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .map((issue) => {
      const path = issuePath(issue);
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}
