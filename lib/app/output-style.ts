// The output style a run uses: config.json's `output_style` (what the user last picked in the
// REPL), or the run's own (RunConfig.outputStyle); `/output-style` lists the styles and picks one.
// The picked style's text joins the system prompt at the next prompt.
import { homedir } from "node:os";
import { join } from "node:path";
import { updateConfig } from "../config.ts";
import { discoverOutputStyles, findOutputStyle, outputStyleSection, type OutputStyle, type OutputStyleFolder } from "../coding/output-styles.ts";
import type { SlashResult } from "./slash-outcome.ts";

/** config.json's key for the style the user picked. */
export const OUTPUT_STYLE_KEY = "output_style";

export class OutputStyleChoice {
  private styles: OutputStyle[] = [];
  /** Undefined: zot's default (no style). */
  private picked: string | undefined;
  private warned = "";

  constructor(private readonly options: { zotHome: string; configFile: string; picked?: string | undefined; warn: (message: string) => void;
    /** Claude Code's user folder (`~/.claude`); tests and embedders give their own. */
    claudeHome?: string }) {
    this.picked = options.picked?.trim() || undefined;
  }

  /** Re-reads the styles: the user's, Claude Code's user folder, and those of the plugins `plugins` names. */
  refresh(plugins: Array<{ dir: string; plugin: string }>): void {
    const folders: OutputStyleFolder[] = [
      { dir: join(this.options.zotHome, "output-styles"), from: "user" },
      { dir: join(this.options.claudeHome ?? join(homedir(), ".claude"), "output-styles"), from: "claude" },
      ...plugins.map(({ dir, plugin }) => ({ dir, from: plugin, plugin: true })),
    ];
    this.styles = discoverOutputStyles(folders, this.options.warn);
    const missing = this.picked && !findOutputStyle(this.styles, this.picked) ? this.picked : "";
    if (missing && missing !== this.warned) {
      this.options.warn(`output style "${missing}" is not installed (${this.names()}); zot's default is used`);
    }
    this.warned = missing;
  }

  /** The system-prompt section of the picked style, or undefined. */
  section(): string | undefined {
    const style = this.picked ? findOutputStyle(this.styles, this.picked) : undefined;
    return style ? outputStyleSection(style) : undefined;
  }

  private names(): string {
    return this.styles.length ? `styles: ${this.styles.map((s) => s.name).join(", ")}` : "no styles are installed";
  }

  /** `/output-style`: no argument lists them; a name picks one (`default` none), kept for later runs when picked in the REPL. */
  async command(args: string, interactive: boolean): Promise<SlashResult> {
    if (args === "") {
      const current = this.picked ? findOutputStyle(this.styles, this.picked)?.name : undefined;
      const rows = [{ name: "default", description: "zot's own instructions only", from: "" }, ...this.styles]
        .map((s) => `${(s.name === (current ?? "default")) ? "*" : " "} ${s.name.padEnd(24)} ${s.description}${s.from ? ` [${s.from}]` : ""}`);
      return { kind: "output", text: `Output styles (/output-style NAME to pick one):\n${rows.join("\n")}` };
    }
    const isDefault = args.toLowerCase() === "default";
    const style = isDefault ? undefined : findOutputStyle(this.styles, args);
    if (!isDefault && !style) return { kind: "failed", message: `no output style "${args}" (${this.names()})` };
    this.picked = style?.name;
    this.warned = "";
    const label = style ? `Output style: ${style.name}` : "Output style: default";
    if (!interactive) return { kind: "output", text: `${label}\n(for this run only: pick it in the REPL to keep it)` };
    try {
      await updateConfig(this.options.configFile, { [OUTPUT_STYLE_KEY]: style?.name });
    } catch (err) {
      return { kind: "output", text: `${label}\nwarning: not saved: ${(err as Error).message}` };
    }
    return { kind: "output", text: `${label} (from the next prompt on)` };
  }
}
