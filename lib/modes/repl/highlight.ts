// Syntax highlighting of code fences: highlight.js (core plus a handful of common languages,
// registered here) produces class-tagged HTML, which is mapped to ANSI colours.
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

const LANGUAGES = { bash, c, cpp, css, diff, go, java, javascript, json, python, ruby, rust, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);
// Names fences use that the languages above do not declare as aliases.
hljs.registerAliases(["sh", "shell", "zsh", "console"], { languageName: "bash" });
hljs.registerAliases(["js", "mjs", "cjs", "jsx"], { languageName: "javascript" });
hljs.registerAliases(["ts", "mts", "tsx"], { languageName: "typescript" });
hljs.registerAliases(["py"], { languageName: "python" });
hljs.registerAliases(["html", "svg"], { languageName: "xml" });
hljs.registerAliases(["yml"], { languageName: "yaml" });

/** SGR codes per highlight.js scope (its first class name, without `hljs-`). */
const COLOURS: Record<string, string> = {
  keyword: "35", built_in: "36", type: "36", literal: "33", number: "33", string: "32",
  regexp: "31", symbol: "33", comment: "2", doctag: "2", meta: "2", title: "34",
  "title.function": "34", "title.class": "36", function: "34", params: "39", attr: "36",
  attribute: "36", variable: "31", "variable.language": "35", property: "36", tag: "34", name: "34",
  "selector-tag": "35", "selector-class": "33", "selector-id": "33", addition: "32", deletion: "31",
  section: "1", subst: "39", "template-variable": "31", operator: "39", punctuation: "39",
};

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'", "&#39;": "'" };

export function knownLanguage(lang: string): boolean {
  return lang !== "" && hljs.getLanguage(lang) !== undefined;
}

/** `code` with ANSI colours for `lang`, one string per line; plain lines for an unknown language. */
export function highlightLines(code: string, lang: string, color: boolean): string[] {
  if (!color || !knownLanguage(lang)) return code.split("\n");
  const html = hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
  return htmlToAnsi(html).split("\n");
}

/**
 * Turns highlight.js's `<span class="hljs-…">` markup into SGR codes. Open styles are closed at
 * each line end and reopened on the next line, so every line stands alone.
 */
function htmlToAnsi(html: string): string {
  const stack: string[] = [];
  let out = "";
  const open = () => stack.filter((c) => c !== "").map((c) => `\x1b[${c}m`).join("");
  for (const part of html.split(/(<span class="[^"]*">|<\/span>|\n)/)) {
    if (part === "") continue;
    if (part.startsWith("<span")) {
      const scope = /class="([^"]*)"/.exec(part)![1]!.split(" ").map((c) => c.replace(/^hljs-/, "").replace(/_$/, ""));
      const key = scope.join(".");
      const code = COLOURS[key] ?? COLOURS[scope[0]!] ?? "";
      stack.push(code);
      if (code !== "") out += `\x1b[${code}m`;
    } else if (part === "</span>") {
      const code = stack.pop();
      if (code) out += `\x1b[0m${open()}`;
    } else if (part === "\n") {
      out += `${stack.some((c) => c !== "") ? "\x1b[0m" : ""}\n${open()}`;
    } else {
      out += part.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (e) => ENTITIES[e] ?? e);
    }
  }
  return out;
}
