import { NO_HOOKS } from "../../lib/agent/contracts/hooks.ts";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ConfirmAnswer, ConfirmRequest } from "../../lib/agent/loop/permissions.ts";
import { startHarness, toolResultsSent, type Harness } from "./harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const write = (id: string, path: string) => ({ id, name: "write", args: { path, content: id } });

/** A confirmer that answers from a list and records what it was asked. */
function scriptedConfirmer(answers: ConfirmAnswer[]) {
  const asked: ConfirmRequest[] = [];
  return {
    asked,
    confirm: async (request: ConfirmRequest): Promise<ConfirmAnswer> => {
      asked.push(request);
      return answers.shift() ?? "no";
    },
  };
}

describe("Permissions: yolo (the default)", () => {
  it("approves every call with source yolo and never asks", async () => {
    const confirmer = scriptedConfirmer([]);
    h = await startHarness([{ tool_calls: [write("y1", "a.txt")] }, { text: "ok" }], { confirmer: confirmer.confirm });
    await h.session.prompt("go");
    expect(confirmer.asked).toEqual([]);
    expect(h.ofType("tool_confirmation_requested")).toEqual([]);
    expect(h.ofType("permission_decision")[0]).toMatchObject({ decision: "approved", source: "yolo", stage: "pre_execution" });
  });
});

describe("Permissions: --no-yolo with a confirmer", () => {
  it("asks with a preview; yes approves as user, no denies as user and the call is blocked", async () => {
    const confirmer = scriptedConfirmer(["yes", "no"]);
    h = await startHarness([{ tool_calls: [write("c1", "yes.txt"), write("c2", "no.txt")] }, { text: "ok" }], {
      yolo: false,
      confirmer: confirmer.confirm,
    });
    await h.session.prompt("write both");
    expect(confirmer.asked.map((r) => r.toolId)).toEqual(["c1", "c2"]);
    expect(confirmer.asked[0]!.toolPreview).toContain("yes.txt");
    const seq = h.events
      .filter((e) => ["tool_confirmation_requested", "permission_decision", "tool_result"].includes(e.type))
      .map((e) => `${e.type}:${(e as { tool_id: string }).tool_id}`);
    expect(seq).toEqual([
      "tool_confirmation_requested:c1", "permission_decision:c1", "tool_result:c1",
      "tool_confirmation_requested:c2", "permission_decision:c2", "tool_result:c2",
    ]);
    const decisions = h.ofType("permission_decision");
    expect(decisions[0]).toMatchObject({ decision: "approved", source: "user" });
    expect(decisions[1]).toMatchObject({ decision: "denied", source: "user" });
    expect(h.ofType("tool_result")[1]).toMatchObject({ tool_id: "c2", status: "blocked", executed: false });
    expect(existsSync(join(h.cwd, "yes.txt"))).toBe(true);
    expect(existsSync(join(h.cwd, "no.txt"))).toBe(false);
    expect(toolResultsSent(h.server.requests[1]!.body)[1]!.text).toContain("declined");
  });

  it('"always this tool" is remembered for that tool only', async () => {
    const confirmer = scriptedConfirmer(["always_tool", "yes"]);
    h = await startHarness(
      [{ tool_calls: [write("t1", "1.txt"), write("t2", "2.txt"), { id: "t3", name: "bash", args: { command: "true" } }] }, { text: "ok" }],
      { yolo: false, confirmer: confirmer.confirm },
    );
    await h.session.prompt("go");
    expect(confirmer.asked.map((r) => r.toolId)).toEqual(["t1", "t3"]);
    expect(h.ofType("permission_decision").map((d) => [d.tool_id, d.source])).toEqual([
      ["t1", "user"], ["t2", "remembered"], ["t3", "user"],
    ]);
    expect(h.ofType("tool_confirmation_requested").map((e) => e.tool_id)).toEqual(["t1", "t3"]);
  });

  it('"always this session" approves every later call as remembered', async () => {
    const confirmer = scriptedConfirmer(["always_session"]);
    h = await startHarness(
      [{ tool_calls: [write("s1", "1.txt"), { id: "s2", name: "bash", args: { command: "true" } }] }, { text: "ok" }],
      { yolo: false, confirmer: confirmer.confirm },
    );
    await h.session.prompt("go");
    expect(confirmer.asked).toHaveLength(1);
    expect(h.ofType("permission_decision").map((d) => d.source)).toEqual(["user", "remembered"]);
  });

  it("a guard refusal never reaches the confirmer", async () => {
    const confirmer = scriptedConfirmer(["yes"]);
    h = await startHarness([{ tool_calls: [write("g1", "x.txt")] }, { text: "ok" }], {
      yolo: false,
      confirmer: confirmer.confirm,
      hooks: {
        ...NO_HOOKS,
        interceptToolCall: async (call) => ({ block: true, reason: "no writes today", args: call.toolArgs }),
      },
    });
    await h.session.prompt("go");
    expect(confirmer.asked).toEqual([]);
    expect(h.ofType("tool_confirmation_requested")).toEqual([]);
    expect(h.ofType("permission_decision")[0]).toMatchObject({ decision: "denied", source: "policy", stage: "pre_execution" });
  });
});

describe("Permissions: confirmation edge cases", () => {
  it("a preview that fails denies the call by policy without asking", async () => {
    const confirmer = scriptedConfirmer(["yes"]);
    const fragile = {
      name: "fragile",
      description: "a tool whose preview throws",
      schema: { type: "object" },
      source: { kind: "extension" as const, extension: "x" },
      preview: () => { throw new Error("cannot render"); },
      execute: async () => ({ content: [{ type: "text" as const, text: "ran" }] }),
    };
    h = await startHarness([{ tool_calls: [{ id: "f1", name: "fragile", args: {} }] }, { text: "ok" }], {
      yolo: false, confirmer: confirmer.confirm, extraTools: () => [fragile],
    });
    await h.session.prompt("go");
    expect(confirmer.asked).toEqual([]);
    expect(h.ofType("tool_confirmation_requested")).toEqual([]);
    expect(h.ofType("permission_decision")[0]).toMatchObject({ decision: "denied", source: "policy", reason: expect.stringContaining("cannot render") });
    expect(h.ofType("tool_result")[0]).toMatchObject({ status: "blocked", executed: false });
  });

  it("aborting while the user is asked gives a cancelled decision and a cancelled result", async () => {
    let asked = false;
    h = await startHarness([{ tool_calls: [write("q1", "q.txt")] }], {
      yolo: false,
      confirmer: () => { asked = true; return new Promise<ConfirmAnswer>(() => undefined); },
    });
    const run = h.session.prompt("go");
    while (!asked) await new Promise((r) => setTimeout(r, 5));
    h.session.abort();
    expect((await run).stop).toBe("aborted");
    expect(h.ofType("permission_decision")[0]).toMatchObject({ decision: "cancelled", source: "user" });
    expect(h.ofType("tool_result")[0]).toMatchObject({ status: "cancelled", executed: false });
    expect(existsSync(join(h.cwd, "q.txt"))).toBe(false);
  });
});

describe("Permissions: --no-yolo without a confirmer (headless)", () => {
  it("runs freely after one warning; decisions say policy", async () => {
    const warnings: string[] = [];
    h = await startHarness([{ tool_calls: [write("h1", "1.txt"), write("h2", "2.txt")] }, { text: "ok" }], {
      yolo: false,
      onWarning: (m) => warnings.push(m),
    });
    await h.session.prompt("go");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/no confirmer/);
    expect(h.ofType("permission_decision").map((d) => [d.decision, d.source])).toEqual([["approved", "policy"], ["approved", "policy"]]);
    expect(readFileSync(join(h.cwd, "2.txt"), "utf8")).toBe("h2");
  });
});

describe("Permissions: --jail", () => {
  it("a refusal is approved before execution, then denied by policy at tool_execution, then a blocked result", async () => {
    h = await startHarness([{ tool_calls: [{ id: "j1", name: "read", args: { path: "../outside.txt" } }] }, { text: "ok" }], { jail: true });
    writeFileSync(join(h.cwd, "..", "outside.txt"), "secret");
    await h.session.prompt("read outside");
    const seq = h.events
      .filter((e) => e.type === "permission_decision" || e.type === "tool_result")
      .map((e) => (e.type === "permission_decision" ? `${e.decision}/${e.source}/${e.stage}` : `result/${(e as { status: string }).status}`));
    expect(seq).toEqual(["approved/yolo/pre_execution", "denied/policy/tool_execution", "result/blocked"]);
    expect(h.ofType("tool_result")[0]).toMatchObject({ executed: true, status: "blocked" });
    const sent = toolResultsSent(h.server.requests[1]!.body)[0]!;
    expect(sent.text).toContain("jail");
    expect(sent.text).not.toContain("secret");
  });

  it("follows symlinks out of the project, and setJail(false) lifts the jail for later calls", async () => {
    h = await startHarness(
      [
        { tool_calls: [{ id: "k1", name: "read", args: { path: "link/inside.txt" } }] },
        { text: "blocked" },
        { tool_calls: [{ id: "k2", name: "read", args: { path: "link/inside.txt" } }] },
        { text: "read" },
      ],
      { jail: true },
    );
    const outside = join(h.cwd, "..", "elsewhere");
    mkdirSync(outside);
    writeFileSync(join(outside, "inside.txt"), "behind a link");
    symlinkSync(outside, join(h.cwd, "link"));
    await h.session.prompt("read via link");
    expect(h.ofType("tool_result")[0]).toMatchObject({ tool_id: "k1", status: "blocked" });
    h.session.setJail(false);
    expect(h.session.state.jail).toBe(false);
    await h.session.prompt("again");
    expect(h.ofType("tool_result")[1]).toMatchObject({ tool_id: "k2", status: "completed" });
    expect(toolResultsSent(h.server.requests[3]!.body).at(-1)!.text).toContain("behind a link");
  });
});

describe("Permissions: the change a call would make", () => {
  it("the confirmer sees the diff before the file changes; the tool_result event carries the diff made", async () => {
    const seen: string[] = [];
    let before = "";
    h = await startHarness([
      { tool_calls: [{ id: "d1", name: "write", args: { path: "f.txt", content: "one\nTWO\n" } }] },
      { text: "ok" },
    ], {
      yolo: false,
      confirmer: async (request) => {
        seen.push(request.diff ?? "");
        before = readFileSync(join(h!.cwd, "f.txt"), "utf8");
        return "yes";
      },
    });
    writeFileSync(join(h.cwd, "f.txt"), "one\ntwo\n");
    await h.session.prompt("change it");
    const diff = "--- f.txt\n+++ f.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n";
    expect(seen).toEqual([diff]);
    expect(before).toBe("one\ntwo\n");
    expect(h.ofType("tool_result")[0]).toMatchObject({ tool_id: "d1", status: "completed", result: { diff } });
  });

  it("a call whose change cannot be computed is still asked, without a diff", async () => {
    const confirmer = scriptedConfirmer(["yes"]);
    h = await startHarness([
      { tool_calls: [{ id: "e1", name: "edit", args: { path: "missing.txt", old_text: "a", new_text: "b" } }] },
      { text: "ok" },
    ], { yolo: false, confirmer: confirmer.confirm });
    await h.session.prompt("edit it");
    expect(confirmer.asked).toHaveLength(1);
    expect(confirmer.asked[0]!.diff).toBeUndefined();
    expect(h.ofType("tool_result")[0]).toMatchObject({ tool_id: "e1", status: "failed" });
  });
});
