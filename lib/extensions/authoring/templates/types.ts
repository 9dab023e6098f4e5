// The shape of a scaffold template: one entry per language in ./index.ts.

/** Values a template fills in: plain `[A-Za-z0-9_-]` strings, safe in any source. */
export interface TemplateContext {
  /** The extension's name (manifest `name`, `hello.name`, folder name). */
  name: string;
  /** The slash command the extension registers (lower-cased name). */
  command: string;
  /** The tool SDK templates register: `<command with _ for ->_word_count`, at most 64 chars. */
  tool: string;
}

export interface TemplateFile {
  /** Path relative to the extension folder. */
  path: string;
  content: string;
  executable?: boolean;
}

export interface ExtensionTemplate {
  /** Manifest `language`. */
  language: string;
  /** One line for `zot ext new --help`. */
  summary: string;
  /** The program file. Unless `exec` is set, the manifest's `exec` is `./<entry>`, made executable. */
  entry: string;
  /** Manifest `exec`/`args` when the entry is not run directly (e.g. through a launcher). */
  exec?: string;
  args?: string[];
  /** Manifest `description`. */
  description(ctx: TemplateContext): string;
  /** The program's source. */
  source(ctx: TemplateContext): string;
  /** Files besides manifest, entry and README (a launcher, a vendored SDK), if any. */
  extraFiles?(ctx: TemplateContext): TemplateFile[];
  /** The README.md (see ./readme.ts for the shared parts). */
  readme(ctx: TemplateContext): string;
}
