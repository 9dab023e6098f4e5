// The commands rpc mode accepts on stdin (host.md "RPC mode"), validated with valibot.
import * as v from "valibot";
import { describeIssues } from "../../protocol/issues.ts";

const id = v.optional(v.union([v.string(), v.number()], "id must be a string or number"));
const str = (field: string) => v.string(`${field} must be a string`);
const flag = (field: string) => v.optional(v.boolean(`${field} must be true or false`));

const ImageSchema = v.looseObject({ mime_type: str("mime_type"), data: str("data") });

/** Every command rpc mode accepts, by `type` (fields beyond these are ignored). */
export const RPC_COMMAND_SCHEMAS = {
  hello: v.looseObject({ type: v.literal("hello"), id, token: v.optional(str("token")) }),
  prompt: v.looseObject({
    type: v.literal("prompt"), id, message: str("message"),
    images: v.optional(v.array(ImageSchema, "images must be an array of {mime_type, data}")),
  }),
  command: v.looseObject({ type: v.literal("command"), id, name: str("name"), args: v.optional(str("args"), "") }),
  /** `all` also withdraws the queued prompts. */
  abort: v.looseObject({ type: v.literal("abort"), id, all: flag("all") }),
  compact: v.looseObject({ type: v.literal("compact"), id }),
  get_state: v.looseObject({ type: v.literal("get_state"), id }),
  get_messages: v.looseObject({ type: v.literal("get_messages"), id, include_images: flag("include_images") }),
  get_commands: v.looseObject({ type: v.literal("get_commands"), id }),
  get_tools: v.looseObject({ type: v.literal("get_tools"), id }),
  clear: v.looseObject({ type: v.literal("clear"), id }),
  new_session: v.looseObject({ type: v.literal("new_session"), id }),
  // `id` correlates the response (as for every command), so the session to switch to is `session_id`.
  switch_session: v.looseObject({ type: v.literal("switch_session"), id, session_id: str("session_id") }),
  /** Forks before the user message at transcript index `message_index` (as get_messages lists them) and continues in the fork. */
  fork_session: v.looseObject({ type: v.literal("fork_session"), id,
    message_index: v.pipe(v.number("message_index must be a number"), v.integer("message_index must be an integer"), v.minValue(0, "message_index must be 0 or more")) }),
  get_session_tree: v.looseObject({ type: v.literal("get_session_tree"), id }),
  /** Relative to the current cwd; default ./<session id>.zotsession. */
  export_session: v.looseObject({ type: v.literal("export_session"), id, path: v.optional(str("path")) }),
  import_session: v.looseObject({ type: v.literal("import_session"), id, path: str("path") }),
  /** A side question answered from the conversation, not added to it (no tools). */
  btw: v.looseObject({ type: v.literal("btw"), id, message: str("message") }),
  /** Relative to the current cwd; `~` expands. */
  set_cwd: v.looseObject({ type: v.literal("set_cwd"), id, path: str("path") }),
  set_model: v.looseObject({ type: v.literal("set_model"), id, model: str("model") }),
  /** `all` lists every provider's models, not only the current one's. */
  get_models: v.looseObject({ type: v.literal("get_models"), id, all: flag("all") }),
  panel_key: v.looseObject({ type: v.literal("panel_key"), id, panel_id: str("panel_id"), key: str("key"), text: v.optional(str("text")) }),
  ping: v.looseObject({ type: v.literal("ping"), id }),
  /** Subagents: their records (also those of earlier runs), and stopping a running one by `agent_id`. */
  get_agents: v.looseObject({ type: v.literal("get_agents"), id }),
  stop_agent: v.looseObject({ type: v.literal("stop_agent"), id, agent_id: str("agent_id") }),
} as const;

type Schemas = typeof RPC_COMMAND_SCHEMAS;
export type RpcCommand = { [K in keyof Schemas]: v.InferOutput<Schemas[K]> }[keyof Schemas];
export type RpcCommandType = keyof Schemas;
export const RPC_COMMANDS = Object.keys(RPC_COMMAND_SCHEMAS) as RpcCommandType[];

/** Commands whose work ends with one `done` event, success or not. */
export function endsWithDone(type: string): boolean {
  return type === "prompt" || type === "command" || type === "compact";
}

const table = new Map<string, v.GenericSchema>(Object.entries(RPC_COMMAND_SCHEMAS));

export type RpcParse =
  | { ok: true; command: RpcCommand }
  | { ok: false; error: string; id?: string | number; command?: string };

export function parseRpcCommand(line: string): RpcParse {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { ok: false, error: `invalid JSON: ${(err as Error).message}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, error: "a command must be a JSON object" };
  const record = value as Record<string, unknown>;
  const cid = typeof record.id === "string" || typeof record.id === "number" ? record.id : undefined;
  const type = record.type;
  if (typeof type !== "string") return { ok: false, error: "type: a command needs a string type", id: cid };
  const schema = table.get(type);
  if (!schema) return { ok: false, error: `unknown command "${type}" (known: ${RPC_COMMANDS.join(", ")})`, id: cid, command: type };
  const parsed = v.safeParse(schema, record);
  if (!parsed.success) return { ok: false, error: describeIssues(parsed.issues), id: cid, command: type };
  return { ok: true, command: parsed.output as RpcCommand };
}
