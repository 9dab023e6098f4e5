// /fork, /tree, /export and /import: the session-branch slash commands, in every mode's terms
// (the REPL opens pickers for /fork and /tree without an argument before it gets here).
import { SessionError } from "../agent/session/session-file.ts";
import { familyOf, renderTree } from "../agent/session/session-family.ts";
import type { Runtime } from "./runtime-surface.ts";
import type { SlashResult } from "./slash-outcome.ts";

export async function runBranching(rt: Runtime, name: string, args: string, interactive: boolean): Promise<SlashResult> {
  try {
    return await run(rt, name, args, interactive);
  } catch (err) {
    if (err instanceof SessionError) return { kind: "failed", message: `/${name}: ${err.message}` };
    throw err;
  }
}

async function run(rt: Runtime, name: string, args: string, interactive: boolean): Promise<SlashResult> {
  const branches = await rt.branches();
  switch (name) {
    case "fork": {
      const points = branches.forkPoints();
      if (!args) {
        if (points.length === 0) return { kind: "output", text: "No prompt to fork at yet." };
        return { kind: "output", text: `Prompts to fork at (fork with /fork N):\n${points.map((p) => `  ${String(p.index).padStart(3)}  ${p.text.slice(0, 70)}`).join("\n")}` };
      }
      if (!/^\d+$/.test(args)) return { kind: "failed", message: "usage: /fork [N] (N: a message number /fork lists)" };
      const parent = rt.session.sessionId;
      const forked = await branches.fork(Number(args));
      const head = `Forked ${parent} before message ${args}: now in conversation ${forked.sessionId}`;
      return interactive
        ? { kind: "output", text: `${head}; the prompt is back in the input line.`, input: forked.prompt }
        : { kind: "output", text: `${head}.\nThe prompt at the fork point was: ${forked.prompt}` };
    }
    case "tree": {
      const { current, families } = branches.tree();
      if (families.length === 0) return { kind: "output", text: "No saved conversations in this directory." };
      // This conversation's family; a conversation not saved yet belongs to none, so all are shown.
      const own = familyOf(families, current);
      const title = own ? "This conversation's branches" : "Conversations of this project";
      return { kind: "output", text: `${title} (* is the open one; switch with /resume ID):\n${renderTree(own ? [own] : families, { current }).join("\n")}` };
    }
    case "export":
      return { kind: "output", text: `Exported this conversation to ${await branches.export(args || undefined)}.` };
    default: {
      if (!args) return { kind: "failed", message: "usage: /import PATH (a .zotsession file /export wrote)" };
      const imported = await branches.import(args);
      return { kind: "output", text: `Imported conversation ${imported.sessionId} (${imported.messages} messages): /resume ${imported.sessionId} continues it.` };
    }
  }
}
