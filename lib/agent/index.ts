// The agent layer's public surface, for modes and the CLI: the session object they drive, the
// session-file selection, and the types of its events and hooks.
export { AgentSession, DEFAULT_MAX_STEPS } from "./session/agent-session.ts";
export type {
  AgentSessionOptions, AgentState, CompactResult, PromptOptions, RunToolContext, RunToolResult, SystemPromptOptions, ToolPromptOptions,
} from "./session/agent-options.ts";
export type { RunResult } from "./loop/loop.ts";
export { EventBus, type EventListener } from "./event-bus.ts";
export * from "./events.ts";
export { NO_HOOKS, type AgentHooks, type AssistantMessageDecision, type BeforeAgentStartInput, type ToolCallDecision, type TurnStartDecision } from "./loop/hooks.ts";
export { NO_CONFIRMER_REASON, type ConfirmAnswer, type Confirmer, type ConfirmRequest } from "./loop/permissions.ts";
export { DEFAULT_COMPACTION, type CompactionSettings } from "./compaction/compaction.ts";
export { readSession, SessionError, SessionFile, type LoadedSession } from "./session/session-file.ts";
export { findSession, listSessions, newSessionId, openSession, sessionDirFor, type OpenedSession, type SessionListing, type SessionSelection } from "./session/session-select.ts";
export { assembleSystemPrompt, builtinSystemPrompt, readSystemFile } from "./prompt/system-prompt.ts";
export { observeContent, type Observation } from "./loop/observation.ts";
export { estimateTokens } from "./compaction/tokens.ts";
export { CONTEXT_FILE_MAX_BYTES, CONTEXT_FILE_NAMES, contextFilesSection, findContextFiles, type ContextFile } from "./prompt/context-files.ts";
