// Every tool call the session runs (the model's, a tool_prompt action's, an extension's
// call_tool, an MCP client's through `zot mcp serve`) passes the same guards: the interception
// points, the permission policy (yolo, remembered "always" answers, the confirmer) and the
// events of one call. Apart from AgentSession so the policy's state and the guarded path that
// uses it sit together.
import type { AgentHooks } from "../contracts/hooks.ts";
import { PermissionPolicy, type Confirmer } from "../loop/permissions.ts";
import type { SettledToolCall, ToolCallRequest } from "../contracts/tool-call.ts";
import { runToolCall, type ToolExecutionObserver } from "../loop/tool-runner.ts";
import type { RunToolContext } from "./agent-options.ts";
import type { Emitter } from "../contracts/emitter.ts";
import type { Workplace } from "./workplace.ts";

export interface SessionToolCallsOptions {
  emit: Emitter;
  /** Where calls run now and the tools they reach (a working-directory change replaces it). */
  place: () => Workplace;
  /** The interception points now (extensions may attach after the session is built). */
  hooks: () => AgentHooks;
  yolo?: boolean;
  confirmer?: Confirmer;
  warn: (message: string) => void;
  interactiveTools?: boolean;
  onActivateTools?: (names: string[]) => void;
  execution?: ToolExecutionObserver;
}

export class SessionToolCalls {
  private readonly permissions: PermissionPolicy;

  constructor(private readonly options: SessionToolCallsOptions) {
    this.permissions = new PermissionPolicy({ yolo: options.yolo, confirmer: options.confirmer, warn: options.warn });
  }

  get yolo(): boolean {
    return this.permissions.yolo;
  }

  set yolo(on: boolean) {
    this.permissions.yolo = on;
  }

  /** One call through interception, confirmation and execution; never throws. */
  run(call: ToolCallRequest, signal: AbortSignal): Promise<SettledToolCall> {
    const { emit, place, hooks, interactiveTools, onActivateTools } = this.options;
    const workplace = place();
    return runToolCall(call, {
      cwd: workplace.cwd,
      tools: () => place().tools.current(),
      hooks: hooks(),
      permissions: this.permissions,
      emit,
      signal,
      interactiveTools: interactiveTools ?? false,
      ...(onActivateTools ? { onActivateTools } : {}),
      ...(this.options.execution ? { execution: this.options.execution } : {}),
    });
  }

  /**
   * A call from outside a model turn: its own `tool_call` event (with `origin_extension` when an
   * extension asked) and nothing written to the transcript.
   */
  async runOutsideTurn(name: string, args: Record<string, unknown>, context: RunToolContext & { toolId: string }): Promise<SettledToolCall> {
    const { toolId, originExtension: origin, parentId } = context;
    const originField = origin !== undefined ? { origin_extension: origin } : {};
    this.options.emit.lifecycle({ type: "tool_call", tool_id: toolId, tool_name: name, tool_args: args, ...originField });
    const signal = context.signal ?? new AbortController().signal;
    return this.run(
      { toolId, toolName: name, args, ...(origin !== undefined ? { originExtension: origin } : {}), ...(parentId ? { parentId } : {}) },
      signal,
    );
  }
}
