// The scaffold templates' public face: the languages (TEMPLATES), scaffolding a new extension,
// and the template types.
export { DEFAULT_TEMPLATE, isTemplateLanguage, TEMPLATES, type TemplateLanguage } from "./languages.ts";
export type { ExtensionTemplate, TemplateContext, TemplateFile } from "./types.ts";
export { scaffoldExtension, templateContext, validateNewName, type ScaffoldOptions, type ScaffoldResult } from "./scaffold.ts";
export { TS_SDK_FILE } from "./ts.ts";
