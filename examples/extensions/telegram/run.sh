#!/bin/sh
# Launches the Telegram bridge with the first runtime that can run it.
# Where the zot checkout is visible (run by hand, by the tests, or by zot --no-sandbox) main.ts
# runs from source (it imports the SDK from ../../../mod.ts); in zot's sandbox and in an
# installed copy it needs main.mjs, the Node bundle described in README.md, because Node 20
# cannot run TypeScript.
here=$(cd "$(dirname "$0")" && pwd)
has() { command -v "$1" >/dev/null 2>&1; }
# Set by a zot built with `bun build --compile`: that binary carries bun and acts as it under
# BUN_BE_BUN=1, so TypeScript runs with nothing else installed.
zot_bun() { [ -n "${ZOT_BUN:-}" ] && [ -x "$ZOT_BUN" ]; }

if [ -f "$here/../../../mod.ts" ]; then
  if has bun; then exec bun "$here/main.ts" "$@"; fi
  if zot_bun; then BUN_BE_BUN=1; export BUN_BE_BUN; exec "$ZOT_BUN" "$here/main.ts" "$@"; fi
  # The checkout's own pinned bun (installed by npm ci).
  repo_bun="$here/../../../node_modules/.bin/bun"
  if [ -x "$repo_bun" ]; then exec "$repo_bun" "$here/main.ts" "$@"; fi
  if has deno; then exec deno run -A "$here/main.ts" "$@"; fi
  # Node 22.6+ strips types itself.
  if has node && node -e 'process.exit(process.features.typescript ? 0 : 1)' 2>/dev/null; then
    exec node "$here/main.ts" "$@"
  fi
fi
if [ -f "$here/main.mjs" ]; then
  if has node; then exec node "$here/main.mjs" "$@"; fi
  if has bun; then exec bun "$here/main.mjs" "$@"; fi
  if zot_bun; then BUN_BE_BUN=1; export BUN_BE_BUN; exec "$ZOT_BUN" "$here/main.mjs" "$@"; fi
  if has deno; then exec deno run -A "$here/main.mjs" "$@"; fi
fi
echo "telegram: nothing can run it here: build main.mjs for node (see README.md; zot's sandbox cannot see the checkout), or install bun or deno" >&2
exit 127
