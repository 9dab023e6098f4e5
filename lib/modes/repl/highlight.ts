// Syntax highlighting of code fences: highlight.js (core plus a handful of common languages,
// registered here) produces class-tagged HTML; each class maps to a palette slot, drawn in the
// theme's colour.
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import python from "highlight.js/lib/languages/python";
import ruby from "highlight.js/lib/languages/ruby";
import rust from "highlight.js/lib/languages/rust";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";
import type { Slot } from "../../theme/palette.ts";
import type { Style } from "./style.ts";

const LANGUAGES = { bash, c, cpp, css, diff, go, java, javascript, json, python, ruby, rust, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);
// Names fences use that the languages above do not declare as aliases.
hljs.registerAliases(["sh", "shell", "zsh", "console"], { languageName: "bash" });
hljs.registerAliases(["js", "mjs", "cjs", "jsx"], { languageName: "javascript" });
hljs.registerAliases(["ts", "mts", "tsx"], { languageName: "typescript" });
hljs.registerAliases(["py"], { languageName: "python" });
hljs.registerAliases(["html", "svg"], { languageName: "xml" });
hljs.registerAliases(["yml"], { languageName: "yaml" });

/** The palette slot per highlight.js scope (its class names, without `hljs-`); unlisted ones stay plain. */
const SLOT_OF: Record<string, Slot> = {
  keyword: "syntax_keyword", "variable.language": "syntax_keyword", "selector-tag": "syntax_keyword",
  built_in: "syntax_type", type: "syntax_type", "title.class": "syntax_type", attr: "syntax_type", attribute: "syntax_type", property: "syntax_type",
  literal: "syntax_number", number: "syntax_number", symbol: "syntax_number", "selector-class": "syntax_number", "selector-id": "syntax_number",
  string: "syntax_string", addition: "syntax_string",
  regexp: "syntax_variable", variable: "syntax_variable", "template-variable": "syntax_variable", deletion: "syntax_variable",
  comment: "syntax_comment", doctag: "syntax_comment", meta: "syntax_comment",
  title: "syntax_function", "title.function": "syntax_function", function: "syntax_function", tag: "syntax_function", name: "syntax_function",
  section: "heading",
};

/** Ends a span's colour and intensity (not the background). */
const END = "\x1b[39;22m";

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'", "&#39;": "'" };

export function knownLanguage(lang: string): boolean {
  return lang !== "" && hljs.getLanguage(lang) !== undefined;
}

/** `code` coloured for `lang` by `style`, one string per line; plain lines without a style or for an unknown language. */
export function highlightLines(code: string, lang: string, style: Style | undefined): string[] {
  if (!style || !knownLanguage(lang)) return code.split("\n");
  const html = hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
  return htmlToAnsi(html, style).split("\n");
}

/** The SGR parameters of a scope's slot in the style's theme ("" for none). */
function codeOf(scope: string[], style: Style): string {
  const slot = SLOT_OF[scope.join(".")] ?? SLOT_OF[scope[0]!];
  if (!slot) return "";
  // The style wraps text in the slot's codes: take the opening ones.
  return /^\x1b\[([\d;]+)m/.exec(style.paint(slot, "x"))?.[1] ?? "";
}

/**
 * Turns highlight.js's `<span class="hljs-…">` markup into SGR codes. Open styles are closed at
 * each line end and reopened on the next line, so every line stands alone.
 */
function htmlToAnsi(html: string, style: Style): string {
  const stack: string[] = [];
  let out = "";
  const open = () => stack.filter((c) => c !== "").map((c) => `\x1b[${c}m`).join("");
  for (const part of html.split(/(<span class="[^"]*">|<\/span>|\n)/)) {
    if (part === "") continue;
    if (part.startsWith("<span")) {
      const scope = /class="([^"]*)"/.exec(part)![1]!.split(" ").map((c) => c.replace(/^hljs-/, "").replace(/_$/, ""));
      const code = codeOf(scope, style);
      stack.push(code);
      if (code !== "") out += `\x1b[${code}m`;
    } else if (part === "</span>") {
      const code = stack.pop();
      // Ends colour and intensity only, so a background the line is drawn on stays.
      if (code) out += `${END}${open()}`;
    } else if (part === "\n") {
      out += `${stack.some((c) => c !== "") ? END : ""}\n${open()}`;
    } else {
      out += part.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (e) => ENTITIES[e] ?? e);
    }
  }
  return out;
}
