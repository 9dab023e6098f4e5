// The merged command and tool namespaces. Resolution is by load order, never by arrival time
// (extensions start in parallel): built-ins win, then the earliest-loaded extension, then the
// first registration within one extension. Command names match case-insensitively and keep the
// registered spelling. Every shadowing is recorded as a conflict on both sides and logged once
// to the shadowed extension's log.
import type { RegisterToolFrame } from "../../protocol/index.ts";
import type { LoadedExtension } from "../runtime/extension.ts";

export interface ExtensionCommandEntry {
  name: string;
  description: string;
  extension: LoadedExtension;
}

export interface ExtensionToolEntry {
  frame: RegisterToolFrame;
  extension: LoadedExtension;
}

/** Strips the leading "/" a user types; command keys are lower case. */
export function commandKey(name: string): string {
  return name.replace(/^\//, "").toLowerCase();
}

export class ExtensionRegistry {
  readonly commands = new Map<string, ExtensionCommandEntry>();
  readonly tools = new Map<string, ExtensionToolEntry>();
  private conflictsOf = new Map<LoadedExtension, string[]>();
  private readonly logged = new WeakMap<LoadedExtension, Set<string>>();

  constructor(private readonly builtinCommands: string[], private readonly builtinTools: string[]) {}

  conflicts(ext: LoadedExtension): string[] {
    return this.conflictsOf.get(ext) ?? [];
  }

  /** Recomputes both namespaces from every extension's registrations, in load order. */
  rebuild(extensions: LoadedExtension[]): void {
    this.commands.clear();
    this.tools.clear();
    this.conflictsOf = new Map();
    const builtinCommands = new Set(this.builtinCommands.map(commandKey));
    const builtinTools = new Set(this.builtinTools);
    // Aliases (a plugin command's plain name) come after every real name and give way silently,
    // also to each other: a plain name two plugins share is nobody's.
    for (const ext of extensions) {
      for (const command of ext.commands) {
        if (command.alias) continue;
        const key = commandKey(command.name);
        if (builtinCommands.has(key)) {
          this.conflict(ext, `command /${command.name} is shadowed by the built-in /${key}`, true);
          continue;
        }
        const owner = this.commands.get(key);
        if (owner) {
          if (owner.extension === ext) {
            this.conflict(ext, `command /${command.name} duplicates its own /${owner.name}; the first registration stays`, true);
          } else {
            this.conflict(ext, `command /${command.name} is shadowed by extension "${owner.extension.name}"`, true);
            this.conflict(owner.extension, `command /${owner.name} shadows the one of extension "${ext.name}"`, false);
          }
          continue;
        }
        this.commands.set(key, { name: command.name, description: command.description, extension: ext });
      }
    }
    const aliasCount = new Map<string, number>();
    for (const ext of extensions) for (const c of ext.commands) if (c.alias) aliasCount.set(commandKey(c.name), (aliasCount.get(commandKey(c.name)) ?? 0) + 1);
    for (const ext of extensions) {
      for (const command of ext.commands) {
        const key = commandKey(command.name);
        if (command.alias && aliasCount.get(key) === 1 && !builtinCommands.has(key) && !this.commands.has(key)) {
          this.commands.set(key, { name: command.name, description: command.description, extension: ext });
        }
      }
      for (const frame of ext.tools) {
        if (builtinTools.has(frame.name)) {
          this.conflict(ext, `tool ${frame.name} is shadowed by the built-in tool`, true);
          continue;
        }
        const owner = this.tools.get(frame.name);
        if (owner) {
          if (owner.extension === ext) {
            this.conflict(ext, `tool ${frame.name} is registered twice; the first registration stays`, true);
          } else {
            this.conflict(ext, `tool ${frame.name} is shadowed by extension "${owner.extension.name}"`, true);
            this.conflict(owner.extension, `tool ${frame.name} shadows the one of extension "${ext.name}"`, false);
          }
          continue;
        }
        this.tools.set(frame.name, { frame, extension: ext });
      }
    }
  }

  private conflict(ext: LoadedExtension, message: string, shadowed: boolean): void {
    const list = this.conflictsOf.get(ext) ?? [];
    list.push(message);
    this.conflictsOf.set(ext, list);
    if (!shadowed) return;
    const logged = this.logged.get(ext) ?? new Set<string>();
    this.logged.set(ext, logged);
    if (logged.has(message)) return;
    logged.add(message);
    ext.log(message);
  }
}
