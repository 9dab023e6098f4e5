// ripgrep's --type names for the JavaScript search (the common ones, as `rg --type-list` gives
// them): grep's `type` filters the same files with or without ripgrep.
import { globMatches } from "./glob-pattern.ts";

const TYPES: Record<string, string[]> = {
  c: ["*.{c,h,H}"],
  cpp: ["*.{C,H,cpp,hpp,cxx,hxx,cc,hh,inl}"],
  cs: ["*.cs"], csharp: ["*.cs"],
  css: ["*.{css,scss}"],
  go: ["*.go"],
  html: ["*.{ejs,htm,html}"],
  java: ["*.{java,jsp,jspx,properties}"],
  js: ["*.{js,jsx,vue}"],
  json: ["*.json", "composer.lock"],
  kotlin: ["*.{kt,kts}"],
  md: ["*.{markdown,md,mdown,mkdn}"], markdown: ["*.{markdown,md,mdown,mkdn}"],
  php: ["*.{php,php3,php4,php5,phtml}"],
  py: ["*.py"],
  ruby: ["*.{gemspec,rb,rbw}", "Gemfile", "Rakefile", "config.ru"],
  rust: ["*.rs"],
  sh: ["*.{bash,csh,ksh,sh,tcsh,zsh}"],
  swift: ["*.swift"],
  toml: ["*.toml", "Cargo.lock"],
  ts: ["*.{ts,tsx}"],
  yaml: ["*.{yaml,yml}"],
};

/** Whether `relPath` is of ripgrep type `type`; a type not listed here means files ending in `.type`. */
export function isFileOfType(type: string, relPath: string): boolean {
  const globs = TYPES[type] ?? [`*.${type}`];
  return globs.some((glob) => globMatches(glob, relPath));
}
