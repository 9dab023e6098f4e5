# json.awk: reads one JSON value from a JSON document on stdin, in POSIX awk (no jq needed).
#
#   awk -v path=tool_args.command -f json.awk    the string at that path, unescaped
#   awk -v path=id -v raw=1 -f json.awk          the value's JSON text as written (to echo it back)
#   awk -v quote=1 -f json.awk                   stdin as one JSON string literal (for replies)
#
# A path names object keys separated by dots ("" is the whole document); array elements are
# numbered from 0 ("items.0.name"). Exit status: 0 found, 1 absent (or not a string, without
# raw=1), 2 not valid JSON up to the value. The first of duplicate keys wins, and the parser
# stops as soon as it has the value, so a huge frame costs little when the wanted key is early.
# Run it with LC_ALL=C: strings are handled as bytes, and \uXXXX escapes are written as UTF-8.

BEGIN { ERRMSG = "" }
{ S = (NR == 1) ? $0 : S "\n" $0 }

END {
  if (quote) { printf "%s", quoted(S); exit 0 }
  N = length(S); P = 1
  parse_value("")
  if (ERRMSG != "") exit 2
  exit 1  # the whole document was read and the path was not in it
}

function peek() { return substr(S, P, 1) }

function skip_ws(   c) {
  for (;;) {
    c = substr(S, P, 1)
    if (c != " " && c != "\t" && c != "\n" && c != "\r") return
    P++
  }
}

function fail(msg) { if (ERRMSG == "") ERRMSG = msg " at byte " P; P = N + 1 }

# Parses the value at P; when `at` is the wanted path, prints it and exits.
function parse_value(at,   c, start, text) {
  skip_ws()
  if (ERRMSG != "" || P > N) { fail("unexpected end"); return }
  c = peek(); start = P
  if (at == path && c == "\"" && !raw) { text = parse_string(1); if (ERRMSG == "") { printf "%s", text; exit 0 } return }
  if (c == "{") parse_object(at)
  else if (c == "[") parse_array(at)
  else if (c == "\"") parse_string(0)
  else parse_literal()
  if (ERRMSG != "") return
  if (at == path) {
    if (!raw) exit 1  # present, but not a string
    printf "%s", substr(S, start, P - start); exit 0
  }
}

function parse_object(at,   key, c) {
  P++; skip_ws()
  if (peek() == "}") { P++; return }
  for (;;) {
    skip_ws()
    if (peek() != "\"") { fail("expected a key"); return }
    key = parse_string(1); skip_ws()
    if (peek() != ":") { fail("expected ':'"); return }
    P++
    parse_value(at == "" ? key : at "." key)
    if (ERRMSG != "") return
    skip_ws(); c = peek(); P++
    if (c == "}") return
    if (c != ",") { P--; fail("expected ',' or '}'"); return }
  }
}

function parse_array(at,   i, c) {
  P++; skip_ws()
  if (peek() == "]") { P++; return }
  for (i = 0; ; i++) {
    parse_value(at == "" ? "" i : at "." i)
    if (ERRMSG != "") return
    skip_ws(); c = peek(); P++
    if (c == "]") return
    if (c != ",") { P--; fail("expected ',' or ']'"); return }
  }
}

function parse_literal(   start) {
  start = P
  while (P <= N && substr(S, P, 1) ~ /[-+.0-9A-Za-z]/) P++
  if (substr(S, start, P - start) !~ /^(true|false|null|-?(0|[1-9][0-9]*)([.][0-9]+)?([eE][-+]?[0-9]+)?)$/)
    fail("bad literal")
}

# Scans the string at P (which is at its opening quote). Returns its unescaped bytes only when
# `keep` is set, so skipping a large string builds nothing. Runs of plain bytes are copied as
# pieces and joined pairwise, so a long string costs n log n, not n squared.
function parse_string(keep,   n, seg, c, e, cp, lo) {
  n = 0; P++; seg = P
  while (P <= N) {
    c = substr(S, P, 1)
    if (c != "\"" && c != "\\") { P++; continue }
    if (keep && P > seg) PIECE[++n] = substr(S, seg, P - seg)
    if (c == "\"") { P++; return keep ? joined(n) : "" }
    e = substr(S, P + 1, 1); P += 2
    if (e == "u") {
      cp = hex4(substr(S, P, 4)); P += 4
      if (cp < 0) { fail("bad \\u escape"); return "" }
      # A UTF-16 surrogate pair spells one code point above U+FFFF.
      if (cp >= 55296 && cp < 56320 && substr(S, P, 2) == "\\u") {
        lo = hex4(substr(S, P + 2, 4))
        if (lo >= 56320 && lo < 57344) { cp = 65536 + (cp - 55296) * 1024 + (lo - 56320); P += 6 }
      }
      if (keep) PIECE[++n] = utf8(cp)
    } else {
      if (e == "n") e = "\n"
      else if (e == "t") e = "\t"
      else if (e == "r") e = "\r"
      else if (e == "b") e = "\b"
      else if (e == "f") e = "\f"
      else if (e != "\"" && e != "\\" && e != "/") { fail("bad escape"); return "" }
      if (keep) PIECE[++n] = e
    }
    seg = P
  }
  fail("unterminated string")
  return ""
}

function joined(n,   i, m) {
  while (n > 1) {
    m = 0
    for (i = 1; i <= n; i += 2) PIECE[++m] = (i < n) ? PIECE[i] PIECE[i + 1] : PIECE[i]
    n = m
  }
  return n ? PIECE[1] : ""
}

function hex4(h,   i, d, v) {
  if (h !~ /^[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f]$/) return -1
  v = 0
  for (i = 1; i <= 4; i++) {
    d = index("0123456789abcdef", tolower(substr(h, i, 1))) - 1
    v = v * 16 + d
  }
  return v
}

function utf8(cp) {
  if (cp < 128) return sprintf("%c", cp)
  if (cp < 2048) return sprintf("%c%c", 192 + int(cp / 64), 128 + cp % 64)
  if (cp < 65536) return sprintf("%c%c%c", 224 + int(cp / 4096), 128 + int(cp / 64) % 64, 128 + cp % 64)
  return sprintf("%c%c%c%c", 240 + int(cp / 262144), 128 + int(cp / 4096) % 64, 128 + int(cp / 64) % 64, 128 + cp % 64)
}

# A JSON string literal holding `s`: quotes, backslashes and control characters escaped.
function quoted(s,   out, i, c, n) {
  out = ""; n = length(s)
  for (i = 1; i <= n; i++) {
    c = substr(s, i, 1)
    if (c == "\"" || c == "\\") out = out "\\" c
    else if (c == "\n") out = out "\\n"
    else if (c == "\t") out = out "\\t"
    else if (c == "\r") out = out "\\r"
    else if (c < " ") out = out sprintf("\\u%04x", ctrl(c))
    else out = out c
  }
  return "\"" out "\""
}

function ctrl(c,   i) {
  for (i = 0; i < 32; i++) if (sprintf("%c", i) == c) return i
  return 0
}
