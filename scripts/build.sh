#!/usr/bin/env bash
# Compiles the TypeScript tree (code and tests: one program, the only typecheck the suite runs) to dist/ and rewrites the @shellgrade/* path aliases; bundles the web app.
# Builds into a private folder and swaps it in with a rename, so a process reading
# dist/ (a running service, a CLI) never sees a half-written or un-aliased tree.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp="dist.tmp.$$"
web="dist.web.$$"
web_pid=
trap '[ -z "$web_pid" ] || kill "$web_pid" 2>/dev/null || true; rm -rf "$tmp" "$web"' EXIT
# The browser app (apps/web): typechecked, then bundled by Vite, which the entry points (monolith,
# gateway) serve at /. A program of its own that reads no compiled output: it runs beside the main
# compile, one tsc per core (each is single-threaded), into a folder of its own.
(
  npx tsc -p apps/web/tsconfig.json --noEmit
  npx vite build --config apps/web/vite.config.mts --outDir "$PWD/$web" --emptyOutDir --logLevel warn
) &
web_pid=$!
npx tsc -p tsconfig.build.json --outDir "$tmp"
npx tsc-alias -p tsconfig.build.json --outDir "$tmp"
# .proto contracts are read at run time beside the compiled code.
cp -r libs/grpc-edge/proto "$tmp/libs/grpc-edge/proto"
if ! wait "$web_pid"; then
  web_pid=
  echo "build: the web app (apps/web) failed its typecheck or bundle" >&2
  exit 1
fi
web_pid=
# dist/apps/web is the bundle alone, as when Vite emptied it after the compile.
rm -rf "$tmp/apps/web"
mkdir -p "$tmp/apps"
mv "$web" "$tmp/apps/web"
if [ -d dist ]; then
  mv dist "dist.old.$$"
  mv "$tmp" dist
  rm -rf "dist.old.$$"
else
  mv "$tmp" dist
fi
