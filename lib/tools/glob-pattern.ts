// Glob patterns as ripgrep (and .gitignore) reads them: `*` and `?` stay within a path segment,
// `**` crosses segments, `{a,b}` is either; a pattern without `/` matches a file's name at any depth.

/** An anchored expression for `glob`; `starCrossesSlash` lets `*` match `/` too (for command rules). */
export function globExpression(glob: string, starCrossesSlash = false): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === "*" && glob[i + 1] === "*") {
      i++;
      if (glob[i + 1] === "/") {
        i++;
        out += "(?:.*/)?";
      } else out += ".*";
    } else if (ch === "*") out += starCrossesSlash ? ".*" : "[^/]*";
    else if (ch === "?") out += starCrossesSlash ? "." : "[^/]";
    else if (ch === "{") {
      const end = glob.indexOf("}", i);
      if (end < 0) out += "\\{";
      else {
        out += `(?:${glob.slice(i + 1, end).split(",").map((alt) => alt.replace(/[.+^${}()|[\]\\*?]/g, "\\$&")).join("|")})`;
        i = end;
      }
    } else out += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`, "s");
}

/** Whether a path relative to the search root (with `/`) matches `glob` as ripgrep's --glob does. */
export function globMatches(glob: string, relPath: string): boolean {
  const pattern = glob.startsWith("/") ? glob.slice(1) : glob;
  if (!pattern.includes("/")) return globExpression(pattern).test(relPath.split("/").pop() ?? relPath);
  return globExpression(pattern).test(relPath);
}
