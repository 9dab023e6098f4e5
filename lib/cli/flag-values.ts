// The values some root flags take: one list each for parsing, --help and shell completion.
export { PROVIDER_NAMES } from "../providers/index.ts";

export const MODES = ["interactive", "print", "json", "rpc", "acp"] as const;
export const REASONING_LEVELS = ["low", "medium", "high"] as const;
