// The tools the model may call at one step: the built-ins first, then extension tools in their
// load order. A name already taken is shadowed (built-ins always win). Inactive deferred tools
// are the extension host's to leave out of what it hands over.
import type { Tool } from "../../tools/types.ts";

export function resolveTools(builtins: readonly Tool[], extra: readonly Tool[] = []): Map<string, Tool> {
  const tools = new Map<string, Tool>();
  for (const tool of builtins) if (!tools.has(tool.name)) tools.set(tool.name, tool);
  for (const tool of extra) if (!tools.has(tool.name)) tools.set(tool.name, tool);
  return tools;
}
