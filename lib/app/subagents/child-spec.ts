// What a parent zot hands a subagent child on the first line of its stdin (never in argv, so keys
// and prompts stay out of process listings): the run, the task, and the child's place in the
// delegation tree. Both ends are the same zot build, so the run travels as its RunConfig.
import type { RunConfig } from "../run-config.ts";

// The flag keeps its historical name: it is the internal argv a parent passes its child.
export const SUBAGENT_CHILD_FLAG = "--swarm-child";

export interface SubagentChildSpec {
  /** The child's run: provider, model, credentials, jail, extensions, its own session file. */
  config: RunConfig;
  prompt: string;
  agentId: string;
  /** Its agent type, when it has one. */
  agentType?: string;
  /** How deep this child is (1 for a child of the user's agent). */
  depth: number;
  /** Children at this depth get no agent tool. */
  maxDepth: number;
}

export function encodeSpec(spec: SubagentChildSpec): string {
  return `${JSON.stringify(spec)}\n`;
}

/** The spec in `line`, or an Error saying what is wrong with it. */
export function decodeSpec(line: string): SubagentChildSpec | Error {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return new Error(`the swarm child spec is not JSON: ${(err as Error).message}`);
  }
  const spec = value as Partial<SubagentChildSpec> | null;
  if (!spec || typeof spec !== "object" || typeof spec.prompt !== "string" || typeof spec.agentId !== "string"
    || !spec.config || typeof spec.config !== "object" || typeof spec.depth !== "number" || typeof spec.maxDepth !== "number") {
    return new Error("the swarm child spec needs config, prompt, agentId, depth and maxDepth");
  }
  return spec as SubagentChildSpec;
}
