// The tools the model may call at one step: the built-ins first, then extension tools in their
// load order. A name already taken is shadowed (built-ins always win). Inactive deferred tools
// are the extension host's to leave out of what it hands over.
import type { Tool } from "../../tools/types.ts";

export function resolveTools(builtins: readonly Tool[], extra: readonly Tool[] = [], dropped?: ReadonlySet<string>): Map<string, Tool> {
  const tools = new Map<string, Tool>();
  for (const tool of builtins) if (!tools.has(tool.name)) tools.set(tool.name, tool);
  for (const tool of extra) if (!tools.has(tool.name) && !dropped?.has(tool.name)) tools.set(tool.name, tool);
  return tools;
}

/**
 * One session's tools: `resolveTools` over the built-ins and the current extension tools, minus
 * extension tools a provider refused (they stay out for the rest of the session).
 */
export class SessionTools {
  private readonly dropped = new Set<string>();

  constructor(
    private readonly builtins: readonly Tool[],
    private readonly extra: () => readonly Tool[],
    private readonly onDropped?: (tool: Tool, error: string) => void,
  ) {}

  current(): Map<string, Tool> {
    return resolveTools(this.builtins, this.extra(), this.dropped);
  }

  /** Drops an extension tool the provider blamed; false for a built-in or an unknown name. */
  drop(name: string, error: string): boolean {
    const tool = this.current().get(name);
    if (tool?.source.kind !== "extension") return false;
    this.dropped.add(name);
    this.onDropped?.(tool, error);
    return true;
  }
}
