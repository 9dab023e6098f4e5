// Subagent limits from the environment: ZOT_AGENT_TIMEOUT_MS (runner time limit, default 30 min),
// ZOT_AGENT_MAX_PARALLEL (runners at once, default 4), ZOT_AGENT_MAX_DEPTH (how deep delegation
// may go, default 1: children cannot delegate). A bad value is warned about and ignored.
import type { SubagentOptions } from "./supervisor.ts";

const VARIABLES = [
  ["ZOT_AGENT_TIMEOUT_MS", "limitMs", 1],
  ["ZOT_AGENT_MAX_PARALLEL", "maxConcurrent", 1],
  ["ZOT_AGENT_MAX_DEPTH", "maxDepth", 0],
] as const;

export function subagentOptionsFromEnv(env: Record<string, string | undefined>, warn: (message: string) => void): SubagentOptions {
  const options: SubagentOptions = {};
  for (const [name, field, min] of VARIABLES) {
    const text = env[name];
    if (text === undefined || text === "") continue;
    const value = Number(text);
    if (!Number.isInteger(value) || value < min) {
      warn(`${name} must be a whole number of at least ${min}, not "${text}"; using the default`);
      continue;
    }
    options[field] = value;
  }
  return options;
}
