// Where a session works: its directory and the tools bound to it (built-ins made for that
// directory, then the extension tools). A working-directory change replaces the whole place,
// so nothing keeps half of the old one.
import { SessionTools } from "../loop/tool-registry.ts";
import { createBuiltinTools, type BuiltinToolsOptions } from "../../tools/builtin-tools.ts";
import type { Skill } from "../../tools/skill-file.ts";
import type { Tool } from "../../tools/types.ts";

export interface WorkplaceOptions {
  /** Options for `createBuiltinTools` besides the directory. */
  tools?: Omit<BuiltinToolsOptions, "cwd" | "jail" | "skills">;
  /** Explicit built-in tools instead of the factory: they stay as given wherever the session goes. */
  builtinTools?: Tool[];
  skills?: Skill[] | (() => Skill[]);
  /** The live /jail setting; its root is the workplace's directory. */
  jail: () => boolean;
  extensionTools: () => Tool[];
  onToolDropped?: (tool: Tool, error: string) => void;
}

export class Workplace {
  readonly tools: SessionTools;

  constructor(readonly cwd: string, options: WorkplaceOptions) {
    // A skills getter keeps the skill tool (reloads may add skills); a plain list without skills drops it.
    const builtins = options.builtinTools ??
      createBuiltinTools({ ...options.tools, cwd, jail: options.jail, skills: options.skills ?? [] });
    this.tools = new SessionTools(builtins, options.extensionTools, options.onToolDropped);
  }
}
