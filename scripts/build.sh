#!/usr/bin/env bash
# Compiles the TypeScript tree to dist/ and rewrites the @shellgrade/* path aliases.
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
if [ -d dist ]; then
  mv dist "dist.old.$$"
  mv "$tmp" dist
  rm -rf "dist.old.$$"
else
  mv "$tmp" dist
fi
