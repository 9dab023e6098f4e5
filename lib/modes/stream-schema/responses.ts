// The `response` line rpc mode answers each command with, and its `data` per command.
import * as v from "valibot";
import { PanelContentSchema } from "../../protocol/extension-frames.ts";
import type { RpcCommandType } from "../rpc/rpc-commands.ts";
import { args, count, int, StreamTextBlockSchema, time, ToolCallBlockSchema, UsageSchema } from "./parts.ts";

/** `{type:"response", id?, command, success, data | error}`; `id` echoes the command's, string or number. */
export const RpcResponseSchema = v.looseObject({
  type: v.literal("response"),
  id: v.optional(v.union([v.string(), v.number()])),
  /** The command's type; null for a line that was not a command. */
  command: v.nullable(v.string()),
  success: v.boolean(),
  data: v.optional(v.unknown()),
  error: v.optional(v.string()),
});

/** For work that may wait behind other work: `started` now, or `queued` (its events come later). */
const Acknowledgement = v.looseObject({ started: v.boolean(), queued: v.boolean() });

const ModelInfoSchema = v.looseObject({
  provider: v.string(), id: v.string(), context_window: count, max_output: v.optional(count),
  cost: v.looseObject({ input: v.number(), output: v.number(), cache_read: v.number(), cache_write: v.number() }),
  thinking: v.optional(v.picklist(["budget", "adaptive", "effort"])),
  /** The vendor's end-of-life date of a deprecated model. */
  deprecated: v.optional(v.string()),
  reasoning: v.boolean(),
});

const ThinkingBlockSchema = v.looseObject({
  type: v.literal("thinking"), thinking: v.string(), signature: v.optional(v.string()), redacted: v.optional(v.boolean()),
});
const ImageBlockSchema = v.looseObject({ type: v.literal("image"), mime_type: v.string(), bytes: count, data: v.optional(v.string()) });
const messageTimes = { timestamp: v.optional(v.number()), time: v.optional(time) };

/** A transcript message as get_messages gives it (zot's fields, plus the Go zot's). */
export const RpcMessageSchema = v.union([
  v.looseObject({ role: v.literal("user"), content: v.array(v.union([StreamTextBlockSchema, ImageBlockSchema])), ...messageTimes }),
  v.looseObject({
    role: v.literal("assistant"),
    content: v.array(v.union([
      StreamTextBlockSchema, ThinkingBlockSchema, v.looseObject({ ...ToolCallBlockSchema.entries, args_raw: v.optional(v.string()) }),
    ])),
    stop: v.string(), error: v.optional(v.string()), usage: v.optional(UsageSchema),
    provider: v.optional(v.string()), model: v.optional(v.string()), ...messageTimes,
  }),
  v.looseObject({
    role: v.literal("tool_result"), tool_id: v.string(), tool_name: v.string(), is_error: v.boolean(),
    /** The result's blocks, then the same result as one Go-style tool_result block. */
    content: v.array(v.union([
      StreamTextBlockSchema, ImageBlockSchema,
      v.looseObject({
        type: v.literal("tool_result"), call_id: v.string(), is_error: v.boolean(),
        content: v.array(v.union([StreamTextBlockSchema, ImageBlockSchema])),
      }),
    ])),
    ...messageTimes,
  }),
]);

/** A subagent's record (get_agents). */
const AgentRecordSchema = v.looseObject({
  id: v.string(), name: v.optional(v.string()), parent_session_id: v.string(), cwd: v.string(),
  /** `type`: the agent type it ran as; `project`: the project directory it belongs to. */
  type: v.optional(v.string()), project: v.optional(v.string()),
  status: v.picklist(["running", "completed", "failed", "cancelled", "timed_out"]), detached: v.boolean(),
  session_file: v.optional(v.string()), prompt: v.string(), answer: v.optional(v.string()), error: v.optional(v.string()),
  agent_run_id: v.string(), runs: count, worktree: v.optional(v.looseObject({
    branch: v.string(), path: v.string(),
    /** The commit of the child's changes on its branch, or why there is none; `removed` once pruned. */
    commit: v.optional(v.string()), commit_error: v.optional(v.string()), removed: v.optional(v.boolean()),
  })),
  created: time, updated: time, finished: v.optional(time),
  /** The zot process supervising it while it runs; whether a detached answer reached its conversation. */
  owner_pid: v.optional(count), delivered: v.optional(v.boolean()),
});

/** One session of get_session_tree, with the branches forked from it. */
interface SessionNode {
  session_id: string; created: string; modified: string; messages: number; first_prompt: string;
  parent_id?: string; fork_message_index?: number; damaged?: string; branches: SessionNode[];
}
const SessionNodeSchema: v.GenericSchema<SessionNode> = v.looseObject({
  session_id: v.string(), created: v.string(), modified: time, messages: count, first_prompt: v.string(),
  parent_id: v.optional(v.string()), fork_message_index: v.optional(count), damaged: v.optional(v.string()),
  branches: v.array(v.lazy(() => SessionNodeSchema)),
});

const CommandAction = v.picklist(["run", "output", "display", "insert", "open_panel", "noop", "compact"]);

/** `data` of a successful response, by command. */
export const RPC_RESPONSE_DATA_SCHEMAS = {
  hello: v.looseObject({
    protocol_version: int, version: v.string(), provider: v.string(), model: v.string(), session_id: v.string(), cwd: v.string(),
  }),
  ping: v.looseObject({ pong: v.literal(true) }),
  prompt: Acknowledgement,
  compact: Acknowledgement,
  command: v.looseObject({
    action: CommandAction, text: v.optional(v.string()), panel: v.optional(PanelContentSchema), error: v.optional(v.string()),
    started: v.optional(v.boolean()), queued: v.optional(v.boolean()),
  }),
  /** The texts of the queued prompts `all:true` withdrew. */
  abort: v.looseObject({ withdrawn: v.array(v.string()) }),
  get_state: v.looseObject({
    session_id: v.string(), session_file: v.optional(v.string()), cwd: v.string(), provider: v.string(), model: v.string(),
    busy: v.boolean(), running: v.boolean(), queued: count, message_count: count, token_estimate: count, context_window: count,
    usage: UsageSchema, yolo: v.boolean(), jail: v.boolean(), max_steps: count, agent_run_id: v.optional(v.string()),
    extensions: v.array(v.looseObject({ name: v.string(), status: v.string(), scope: v.string(), full_access: v.optional(v.boolean()) })),
  }),
  get_messages: v.looseObject({ messages: v.array(RpcMessageSchema) }),
  get_commands: v.looseObject({ commands: v.array(v.looseObject({ name: v.string(), description: v.string(), source: v.string() })) }),
  get_tools: v.looseObject({ tools: v.array(v.looseObject({ name: v.string(), description: v.string(), schema: args, source: v.string() })) }),
  clear: v.looseObject({}),
  new_session: v.looseObject({ session_id: v.string() }),
  switch_session: v.looseObject({ session_id: v.string() }),
  set_cwd: v.looseObject({ cwd: v.string(), session_id: v.string() }),
  set_model: v.looseObject({ provider: v.string(), model: v.string(), warning: v.optional(v.string()) }),
  get_models: v.looseObject({ models: v.array(ModelInfoSchema) }),
  panel_key: v.looseObject({ closed: v.optional(v.literal(true)) }),
  get_agents: v.looseObject({ agents: v.array(AgentRecordSchema), running: count }),
  stop_agent: v.looseObject({ stopping: v.literal(true) }),
  fork_session: v.looseObject({ session_id: v.string(), prompt: v.string() }),
  get_session_tree: v.looseObject({ current: v.string(), sessions: v.array(SessionNodeSchema) }),
  export_session: v.looseObject({ path: v.string() }),
  import_session: v.looseObject({ session_id: v.string(), messages: count }),
  btw: v.looseObject({ answer: v.string() }),
} satisfies Record<RpcCommandType, v.GenericSchema>;
