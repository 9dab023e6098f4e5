// Extension tools as `Tool` objects: `execute` has the owning extension's driver run the call
// (a `tool_call` frame, an MCP request) and keeps the bookkeeping every kind shares: the call
// chain nested call_tool frames refer to, deferred tools a result activates, the output cap.
// Never throws: a dead extension, a timeout (60 s unless the tool is interactive), a
// cancellation or a bad reply become typed outcomes.
import { errorOutcome, type Tool, type ToolExecutionContext, type ToolOutcome } from "../../tools/types.ts";
import type { LoadedExtension } from "../runtime/extension.ts";
import { capToolOutput } from "../runtime/output-cap.ts";
import type { ExtensionToolEntry } from "./registry.ts";

/** A host `tool_call` in flight, by its correlation id; the parent of nested call_tool chains. */
export interface ActiveCall {
  id: string;
  extension: LoadedExtension;
  /** Tool names of the chain, outermost first, this call's own name last. */
  chain: string[];
  signal: AbortSignal;
  /** An interactive tool's call: while it runs, its extension may open panels by rendering them. */
  interactive: boolean;
}

export class ActiveCalls {
  private readonly byId = new Map<string, ActiveCall>();

  get(id: string): ActiveCall | undefined {
    return this.byId.get(id);
  }

  add(call: ActiveCall): void {
    this.byId.set(call.id, call);
  }

  delete(id: string): void {
    this.byId.delete(id);
  }

  /** Whether a host-invoked tool of `ext` is running (un-parented call_tool is then refused). */
  hasActive(ext: LoadedExtension, options: { interactive?: boolean } = {}): boolean {
    for (const call of this.byId.values()) {
      if (call.extension === ext && (!options.interactive || call.interactive)) return true;
    }
    return false;
  }
}

export interface ToolProxyDeps {
  interactive: boolean;
  toolCallTimeoutMs: number;
  /** The most text of one result the model gets. */
  maxOutputBytes: number;
  activeCalls: ActiveCalls;
  /** Deferred tools named by a result become active. */
  activate(names: string[]): void;
}

const EMPTY_SCHEMA = { type: "object", properties: {} };

export function createToolProxy(entry: ExtensionToolEntry, deps: ToolProxyDeps): Tool {
  const { frame, extension } = entry;
  const interactive = frame.interactive === true;
  return {
    name: frame.name,
    description: frame.description ?? "",
    schema: frame.schema ?? EMPTY_SCHEMA,
    source: { kind: "extension", extension: extension.name },
    deferred: frame.deferred === true,
    interactive,
    execute: async (args, ctx) => {
      const outcome = await runExtensionTool(entry, args, ctx, deps);
      // The model's calls are capped; an extension's call_tool gets the protocol's own 256 KiB bound.
      if (ctx.originExtension !== undefined) return outcome;
      return capToolOutput(outcome, deps.maxOutputBytes, `${extension.driver.toolLabel} ${frame.name}`);
    },
  };
}

function attributed(outcome: ToolOutcome, ext: LoadedExtension): ToolOutcome {
  return { ...outcome, details: { ...outcome.details, extension: ext.name } };
}

async function runExtensionTool(entry: ExtensionToolEntry, args: Record<string, unknown>, ctx: ToolExecutionContext,
  deps: ToolProxyDeps): Promise<ToolOutcome> {
  const { frame, extension: ext } = entry;
  // Named in failures only; built lazily, since a call that succeeds never needs it.
  const who = () => `tool ${frame.name} (extension "${ext.name}")`;
  if (!ext.alive) {
    return attributed(errorOutcome(`${who()} is unavailable: the extension is not running. See \`zot ext doctor\`.`), ext);
  }
  const interactive = frame.interactive === true;
  if (interactive && !deps.interactive) {
    return attributed(errorOutcome(`${who()} is interactive: it needs to ask the user, and this mode has no interactive ` +
      "support. Do not call it again in this session."), ext);
  }
  if (ctx.signal.aborted) return attributed(errorOutcome(`${who()} was cancelled before it started`, "cancelled"), ext);
  const id = ext.driver.newRequestId("tool");
  const parent = ctx.parentId !== undefined ? deps.activeCalls.get(ctx.parentId) : undefined;
  deps.activeCalls.add({ id, extension: ext, chain: parent ? [...parent.chain, frame.name] : [frame.name], signal: ctx.signal,
    interactive });
  try {
    const outcome = await ext.driver.callTool({ id, name: frame.name, args, signal: ctx.signal, timeoutMs: deps.toolCallTimeoutMs,
      interactive, ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}) });
    if (outcome.activateTools?.length) deps.activate(outcome.activateTools);
    return attributed(outcome, ext);
  } finally {
    deps.activeCalls.delete(id);
  }
}

/**
 * The proxies of the registered extension tools: one per registry entry (a rebuilt registry has
 * new entries, so a reload drops the old proxies); a deferred tool only once a tool_result
 * activated it (kept across reloads: the model knows it).
 */
export class ToolProxies {
  private readonly activated = new Set<string>();
  private readonly proxies = new WeakMap<ExtensionToolEntry, Tool>();

  constructor(private readonly deps: Omit<ToolProxyDeps, "activate">, private readonly entries: () => ReadonlyMap<string, ExtensionToolEntry>) {}

  /** The tools of live extensions the model may call now. */
  active(): Tool[] {
    const tools: Tool[] = [];
    for (const entry of this.entries().values()) {
      if (!entry.extension.alive) continue;
      if (entry.frame.deferred && !this.activated.has(entry.frame.name)) continue;
      let proxy = this.proxies.get(entry);
      if (!proxy) {
        proxy = createToolProxy(entry, { ...this.deps, activate: (names) => this.activate(names) });
        this.proxies.set(entry, proxy);
      }
      tools.push(proxy);
    }
    return tools;
  }

  private activate(names: string[]): void {
    for (const name of names) {
      if (this.entries().get(name)?.frame.deferred) this.activated.add(name); // unknown names are ignored
    }
  }
}
