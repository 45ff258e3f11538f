#!/usr/bin/env bash
# Compiles only the libraries the grader tools need into run/grader-baseline/dist (private: a
# concurrent `npm run build` of the whole repo cannot break it), then runs one of them.
#   bash benchmarks/grader-baseline/node-tool.sh <grader-baseline|grader-profile> [args...]
set -euo pipefail
cd "$(dirname "$0")/../.."
tool=$1
shift
tsconfig=benchmarks/grader-baseline/tsconfig.json
npx tsc -p "$tsconfig"
npx tsc-alias -p "$tsconfig"
exec node "run/grader-baseline/dist/benchmarks/grader-baseline/$tool.js" "$@"
