// Subagent tests: one scripted model server answers the parent and its children alike, each
// conversation routed by a marker in its first user message, and a scan for swarm-child
// processes still running in a test project.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import type { RecordedRequest, StaticTurn, Turn } from "../support/model-server.ts";

/** The text of a request's first user message (Anthropic and OpenAI wires). */
export function firstUserText(body: any): string {
  const first = (body?.messages ?? []).find((m: any) => m.role === "user");
  if (!first) return "";
  if (typeof first.content === "string") return first.content;
  return (first.content ?? []).map((b: any) => (typeof b.text === "string" ? b.text : "")).join("");
}

/**
 * A turn that plays the next turn of the first route whose marker the conversation's first user
 * message contains. Push it once per request the test expects (`routedTurns` does).
 */
export function routedTurn(routes: Record<string, Turn[]>): Turn {
  return async (request: RecordedRequest): Promise<StaticTurn> => {
    const text = firstUserText(request.body);
    const marker = Object.keys(routes).find((m) => text.includes(m));
    const next = marker === undefined ? undefined : routes[marker]!.shift();
    if (next === undefined) return { type: "error", status: 400, message: `no scripted turn for a conversation starting ${JSON.stringify(text.slice(0, 60))}` };
    return typeof next === "function" ? next(request) : next;
  };
}

export function routedTurns(routes: Record<string, Turn[]>): Turn[] {
  const count = Object.values(routes).reduce((n, turns) => n + turns.length, 0);
  const turn = routedTurn(routes);
  return Array.from({ length: count }, () => turn);
}

/** Pids of `zot --swarm-child` processes running in `cwd` (or below it). */
export function swarmChildren(cwd: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (!cmdline.includes("--swarm-child")) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (/\) [ZX] /.test(stat)) continue;
      if (readlinkSync(`/proc/${entry}/cwd`).startsWith(cwd)) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}
