// A machine-readable schema of every line json and rpc modes print and every command rpc mode
// reads, as valibot schemas (exported from mod.ts as `streamSchema`). Objects are loose: zot may
// add fields, and clients should ignore fields they do not know. `validateStreamLine` checks one
// printed line; `validateRpcCommand` one command line.
import * as v from "valibot";
import { describeIssues } from "../../protocol/issues.ts";
import { parseRpcCommand, RPC_COMMAND_SCHEMAS } from "../rpc/rpc-commands.ts";
import { STREAM_EVENT_SCHEMAS } from "./events.ts";
import { RPC_RESPONSE_DATA_SCHEMAS, RpcResponseSchema } from "./responses.ts";

export { STREAM_EVENT_SCHEMAS, type StreamEvent, type StreamEventType } from "./events.ts";
export { RPC_RESPONSE_DATA_SCHEMAS, RpcMessageSchema, RpcResponseSchema } from "./responses.ts";
export { StreamBlockSchema, ToolContentSchema, UsageSchema } from "./parts.ts";
export { RPC_COMMAND_SCHEMAS, type RpcCommand, type RpcCommandType } from "../rpc/rpc-commands.ts";

export interface LineSchemas {
  events: Record<string, v.GenericSchema>;
  response: v.GenericSchema;
  responseData: Record<string, v.GenericSchema>;
}

export const LINE_SCHEMAS: LineSchemas = { events: STREAM_EVENT_SCHEMAS, response: RpcResponseSchema, responseData: RPC_RESPONSE_DATA_SCHEMAS };

/**
 * Checks one line json or rpc mode printed (a parsed object): an event, or a response whose
 * data matches its command. Returns the problem, or undefined when the line is valid.
 */
export function validateStreamLine(line: unknown, schemas: LineSchemas = LINE_SCHEMAS): string | undefined {
  if (typeof line !== "object" || line === null || Array.isArray(line)) return "a line must be a JSON object";
  const type = (line as { type?: unknown }).type;
  if (typeof type !== "string") return "a line needs a string type";
  if (type === "response") {
    const parsed = v.safeParse(schemas.response, line);
    if (!parsed.success) return `response: ${describeIssues(parsed.issues)}`;
    const response = parsed.output as { command: string | null; success: boolean; data?: unknown; error?: unknown };
    if (!response.success) return typeof response.error === "string" ? undefined : "a failed response needs an error";
    const data = response.command === null ? undefined : schemas.responseData[response.command];
    if (!data) return `a successful response to an unknown command ${JSON.stringify(response.command)}`;
    const checked = v.safeParse(data, response.data);
    return checked.success ? undefined : `response to ${response.command}: data: ${describeIssues(checked.issues)}`;
  }
  const schema = schemas.events[type];
  if (!schema) return `unknown event type "${type}"`;
  const parsed = v.safeParse(schema, line);
  return parsed.success ? undefined : `${type}: ${describeIssues(parsed.issues)}`;
}

/** Checks one rpc command line (text), as zot will parse it. Returns the problem, or undefined. */
export function validateRpcCommand(line: string): string | undefined {
  const parsed = parseRpcCommand(line);
  return parsed.ok ? undefined : parsed.error;
}

/** The command types rpc mode knows. */
export const RPC_COMMAND_TYPES = Object.keys(RPC_COMMAND_SCHEMAS);
