// `/rewind`: back to before one of this conversation's prompts. `/rewind` lists the prompts;
// `/rewind N` puts the files back as they were before prompt N and forks the conversation there
// (the later part stays a branch: /tree); `/rewind N files` or `/rewind N conversation` does one.
import { relative } from "node:path";
import { forkPoints } from "../agent/session/session-fork.ts";
import type { Runtime } from "./runtime-surface.ts";
import type { SlashResult } from "./slash-outcome.ts";

const MODES = ["both", "files", "conversation"] as const;

export async function runRewind(rt: Runtime, args: string, interactive: boolean): Promise<SlashResult> {
  const points = forkPoints(rt.session.messages);
  const recorded = new Set(rt.checkpoints.list().map((c) => c.index));
  if (args === "") {
    if (points.length === 0) return { kind: "output", text: "No prompt to rewind to yet." };
    const rows = points.map((p) => `  ${String(p.index).padStart(3)}  ${recorded.has(p.index) ? "files " : "      "} ${p.text.replace(/\s+/g, " ").slice(0, 64)}`);
    return { kind: "output", text: `Prompts to rewind to (/rewind N [files|conversation]; "files": it changed files):\n${rows.join("\n")}` };
  }
  const [n, modeWord = "both"] = args.split(/\s+/);
  const mode = MODES.find((m) => m === modeWord);
  if (!/^\d+$/.test(n ?? "") || !mode) return { kind: "failed", message: "usage: /rewind [N [files|conversation]] (N: a prompt number /rewind lists)" };
  const index = Number(n);
  if (!points.some((p) => p.index === index)) return { kind: "failed", message: `/rewind: ${index} is not one of this conversation's prompts (/rewind lists them)` };
  if (rt.session.running) return { kind: "failed", message: "/rewind: wait for the agent to finish, or abort first" };
  const lines: string[] = [];
  if (mode !== "conversation") {
    const plan = await rt.checkpoints.rewindFiles(index);
    const shown = (path: string) => relative(rt.cwd, path) || path;
    if (plan.restore.length + plan.remove.length === 0) lines.push("Files: nothing to put back.");
    for (const { path } of plan.restore) lines.push(`restored ${shown(path)}`);
    for (const path of plan.remove) lines.push(`removed  ${shown(path)}`);
    for (const path of plan.unknown) lines.push(`left as it is (its earlier content was not recorded): ${shown(path)}`);
  }
  let input: string | undefined;
  if (mode !== "files") {
    const from = rt.session.sessionId;
    const forked = await (await rt.branches()).fork(index);
    rt.checkpoints.carryTo(forked.sessionId, index, from);
    lines.push(`Conversation: back to before message ${index}, in ${forked.sessionId} (the later part stays in ${from}: /tree).`);
    if (interactive) input = forked.prompt;
    else lines.push(`The prompt there was: ${forked.prompt}`);
  }
  return { kind: "output", text: lines.join("\n"), ...(input !== undefined ? { input } : {}) };
}
