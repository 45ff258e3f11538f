#!/usr/bin/env bash
# Compiles the TypeScript tree (code and tests: one program, the only typecheck the suite runs) to dist/ and rewrites the @shellgrade/* path aliases; bundles the web app.
# Builds into a private folder and swaps it in with a rename, so a process reading
# dist/ (a running service, a CLI) never sees a half-written or un-aliased tree.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp="dist.tmp.$$"
trap 'rm -rf "$tmp"' EXIT
npx tsc -p tsconfig.build.json --outDir "$tmp"
npx tsc-alias -p tsconfig.build.json --outDir "$tmp"
# .proto contracts are read at run time beside the compiled code.
cp -r libs/grpc-edge/proto "$tmp/libs/grpc-edge/proto"
# The browser app (apps/web): typechecked, then bundled by Vite into dist/apps/web, which the
# entry points (monolith, gateway) serve at /.
npx tsc -p apps/web/tsconfig.json --noEmit
npx vite build --config apps/web/vite.config.mts --outDir "$PWD/$tmp/apps/web" --emptyOutDir --logLevel warn
if [ -d dist ]; then
  mv dist "dist.old.$$"
  mv "$tmp" dist
  rm -rf "dist.old.$$"
else
  mv "$tmp" dist
fi
