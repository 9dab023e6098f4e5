// The shape of a scaffold template: one entry per language in ./index.ts.

/** Values a template fills in. Both are plain `[A-Za-z0-9_-]` strings, safe in any source. */
export interface TemplateContext {
  /** The extension's name (manifest `name`, `hello.name`, folder name). */
  name: string;
  /** The slash command the extension registers (lower-cased name). */
  command: string;
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
  /** The program file; made executable. The manifest's `exec` is `./<entry>` unless `exec` is set. */
  entry: string;
  /** Manifest `exec`/`args` when the entry is not run directly (e.g. through an interpreter). */
  exec?: string;
  args?: string[];
  /** The program's source. */
  source(ctx: TemplateContext): string;
  /** Files besides manifest, entry and README (e.g. a package.json), if the language needs any. */
  extraFiles?(ctx: TemplateContext): TemplateFile[];
  /** What the README says about running the program by hand. */
  runHint: string;
}
