// Writes a new extension folder from a template: staged in a hidden sibling, then renamed, so
// a half-written scaffold never appears as an install.
import { chmod, lstat, mkdir, mkdtemp, realpath, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { MANIFEST_FILE } from "../../catalog/manifest.ts";
import type { ExtensionTemplate, TemplateContext, TemplateFile } from "./types.ts";

/** New extension names: a letter or digit, then letters, digits, `-` or `_` (at most 64). */
const NEW_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Returns an error message for an unusable name, or undefined. */
export function validateNewName(name: string): string | undefined {
  if (NEW_NAME.test(name)) return undefined;
  return `"${name}" is not a usable extension name: use letters, digits, "-" and "_" (starting with a letter or digit, at most 64)`;
}

export interface ScaffoldOptions {
  name: string;
  template: ExtensionTemplate;
  /** The extensions root the new folder goes into (created if missing). */
  root: string;
}

export interface ScaffoldResult {
  path: string;
  command: string;
  files: string[];
}

/** Tool names must suit every provider (OpenAI: `[A-Za-z0-9_-]{1,64}`); `_` reads as a word break. */
const TOOL_SUFFIX = "_word_count";
const TOOL_NAME_MAX = 64;

export function templateContext(name: string): TemplateContext {
  const command = name.toLowerCase();
  const tool = `${command.replace(/-/g, "_").slice(0, TOOL_NAME_MAX - TOOL_SUFFIX.length)}${TOOL_SUFFIX}`;
  return { name, command, tool };
}

function manifestFile(template: ExtensionTemplate, ctx: TemplateContext): TemplateFile {
  const manifest = {
    name: ctx.name,
    version: "0.1.0",
    description: template.description(ctx),
    exec: template.exec ?? `./${template.entry}`,
    ...(template.args ? { args: template.args } : {}),
    language: template.language,
    enabled: true,
  };
  return { path: MANIFEST_FILE, content: `${JSON.stringify(manifest, null, 2)}\n` };
}

/** Creates `<root>/<name>` from the template; refuses when that folder already exists. */
export async function scaffoldExtension({ name, template, root }: ScaffoldOptions): Promise<ScaffoldResult> {
  const problem = validateNewName(name);
  if (problem) throw new Error(problem);
  const ctx = templateContext(name);
  await mkdir(root, { recursive: true });
  const realRoot = await realpath(root);
  const dest = join(realRoot, name);
  if (await lstat(dest).then(() => true, () => false)) {
    throw new Error(`${dest} already exists; pick another name or remove it first`);
  }
  const files: TemplateFile[] = [
    manifestFile(template, ctx),
    { path: template.entry, content: template.source(ctx), executable: template.exec === undefined },
    { path: "README.md", content: template.readme(ctx) },
    ...(template.extraFiles?.(ctx) ?? []),
  ];
  const staging = await mkdtemp(join(realRoot, ".zot-new-"));
  try {
    for (const file of files) {
      const path = join(staging, file.path);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, file.content);
      if (file.executable) await chmod(path, 0o755);
    }
    await chmod(staging, 0o755);
    await rename(staging, dest);
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw err;
  }
  return { path: dest, command: ctx.command, files: files.map((f) => f.path) };
}
