// Everything an extension registers: commands, tools, event handlers, interceptors and panel
// callbacks, plus the frames that announce them. Registration order is announcement order.
import { interceptedEvents } from "./intercept.ts";
import { INTERCEPT_V2, isJsonObject } from "../protocol/index.ts";
import type { Response } from "./responses.ts";
import type { ToolResult } from "./results.ts";
import type {
  Awaitable,
  CommandContext,
  EventHandler,
  Interceptors,
  JsonObject,
  PanelCloseHandler,
  PanelKeyHandler,
  ToolContext,
  ToolDefinition,
} from "./types.ts";
import type { OutboundFrame } from "./writer.ts";

export type CommandHandler = (args: string, ctx: CommandContext) => Awaitable<Response | undefined | void>;
export type ToolHandler = (args: JsonObject, ctx: ToolContext) => Awaitable<ToolResult | string>;

export interface RegisteredCommand {
  name: string;
  description: string;
  handler: CommandHandler;
}

export interface RegisteredTool {
  name: string;
  definition: ToolDefinition;
  handler: ToolHandler;
}

const DEFAULT_SCHEMA: JsonObject = { type: "object", properties: {} };

function checkName(what: string, name: unknown): asserts name is string {
  if (typeof name !== "string" || name.trim() === "") throw new TypeError(`${what} name must be a non-empty string`);
  if (/\s/.test(name)) throw new TypeError(`${what} name "${name}" must not contain whitespace`);
}

function checkHandler(what: string, handler: unknown): void {
  if (typeof handler !== "function") throw new TypeError(`${what} handler must be a function`);
}

export class HandlerRegistry {
  /** Keyed by lower-case name: the host matches commands case-insensitively. */
  readonly commands = new Map<string, RegisteredCommand>();
  readonly tools = new Map<string, RegisteredTool>();
  readonly events = new Map<string, EventHandler[]>();
  readonly interceptors: Interceptors = {};
  /** The interception deadline the subscription asks for (intercept_v2; the host caps it). */
  interceptTimeoutMs: number | undefined;
  readonly panelKeys = new Map<string, PanelKeyHandler>();
  readonly panelCloses = new Map<string, PanelCloseHandler>();

  addCommand(name: string, description: string, handler: CommandHandler): RegisteredCommand {
    checkName("command", name);
    checkHandler(`command /${name}`, handler);
    if (typeof description !== "string") throw new TypeError(`command /${name}: description must be a string`);
    const key = name.toLowerCase();
    const taken = this.commands.get(key);
    if (taken) throw new Error(`command /${name} is already registered (as /${taken.name})`);
    const entry = { name, description, handler };
    this.commands.set(key, entry);
    return entry;
  }

  addTool(name: string, definition: ToolDefinition, handler: ToolHandler): RegisteredTool {
    checkName("tool", name);
    checkHandler(`tool ${name}`, handler);
    if (!definition || typeof definition.description !== "string") {
      throw new TypeError(`tool ${name}: definition.description must be a string`);
    }
    if (definition.schema !== undefined && !isJsonObject(definition.schema)) {
      throw new TypeError(`tool ${name}: definition.schema must be a JSON Schema object`);
    }
    if (this.tools.has(name)) throw new Error(`tool ${name} is already registered`);
    const entry = { name, definition, handler };
    this.tools.set(name, entry);
    return entry;
  }

  addEventHandler(event: string, handler: EventHandler): void {
    checkName("event", event);
    checkHandler(`event ${event}`, handler);
    const list = this.events.get(event) ?? [];
    list.push(handler);
    this.events.set(event, list);
  }

  /** Looks a command up by the canonical name the host sends, tolerating case differences. */
  findCommand(name: string): RegisteredCommand | undefined {
    return this.commands.get(name.toLowerCase());
  }

  /** Capabilities for `hello`: the features in use, then `tool_cancel` and `call_tool`, then extras. */
  capabilities(extra: readonly string[] = []): string[] {
    const caps: string[] = [];
    if (this.commands.size > 0) caps.push("commands");
    if (this.tools.size > 0) caps.push("tools");
    if (this.events.size > 0 || interceptedEvents(this.interceptors).length > 0) caps.push("events");
    if (this.panelKeys.size > 0 || this.panelCloses.size > 0) caps.push("panels");
    // This SDK reads and writes the interception additions (an older host ignores the name).
    caps.push("tool_cancel", "call_tool", INTERCEPT_V2);
    for (const cap of extra) if (!caps.includes(cap)) caps.push(cap);
    return caps;
  }

  commandFrame(entry: RegisteredCommand): OutboundFrame {
    return { type: "register_command", name: entry.name, description: entry.description };
  }

  toolFrame(entry: RegisteredTool): OutboundFrame {
    const { description, schema, deferred, interactive } = entry.definition;
    return {
      type: "register_tool",
      name: entry.name,
      description,
      schema: schema ?? DEFAULT_SCHEMA,
      ...(deferred ? { deferred: true } : {}),
      ...(interactive ? { interactive: true } : {}),
    };
  }

  /** The one `subscribe` frame, or undefined when nothing is observed or intercepted. */
  subscribeFrame(): OutboundFrame | undefined {
    const events = [...this.events.keys()];
    const intercept = interceptedEvents(this.interceptors);
    if (events.length === 0 && intercept.length === 0) return undefined;
    return {
      type: "subscribe",
      ...(events.length > 0 ? { events } : {}),
      ...(intercept.length > 0 ? { intercept } : {}),
      ...(intercept.length > 0 && this.interceptTimeoutMs !== undefined ? { intercept_timeout_ms: this.interceptTimeoutMs } : {}),
    };
  }

  /** Registration frames in announcement order: commands, tools, then the subscription. */
  announcement(): OutboundFrame[] {
    const frames = [
      ...[...this.commands.values()].map((c) => this.commandFrame(c)),
      ...[...this.tools.values()].map((t) => this.toolFrame(t)),
    ];
    const subscribe = this.subscribeFrame();
    if (subscribe) frames.push(subscribe);
    return frames;
  }
}
