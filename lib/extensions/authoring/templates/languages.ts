// Scaffold templates shipped inside zot, one entry per language. Adding a language is one
// file exporting an ExtensionTemplate plus one line in TEMPLATES.
import { jsTemplate } from "./js.ts";
import { pythonTemplate } from "./python.ts";
import { shTemplate } from "./sh.ts";
import { tsTemplate } from "./ts.ts";
import type { ExtensionTemplate } from "./types.ts";

export const TEMPLATES = {
  ts: tsTemplate,
  js: jsTemplate,
  python: pythonTemplate,
  sh: shTemplate,
} satisfies Record<string, ExtensionTemplate>;

export type TemplateLanguage = keyof typeof TEMPLATES;

export const DEFAULT_TEMPLATE: TemplateLanguage = "js";

export function isTemplateLanguage(value: string): value is TemplateLanguage {
  return Object.hasOwn(TEMPLATES, value);
}
