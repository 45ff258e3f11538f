#!/usr/bin/env bash
# Grader-only baseline (issue 2): gradings/s and ms/grading of the paper-equivalent exercise,
# no HTTP. Rows (bwrap): async x1, x2, blocking x1, x2, pool x1, x2; and async x1, x2 without isolation.
# Writes results/grader-baseline/<timestamp>.json and latest.json; ~25 s with the default 2 s/row.
#   bash benchmarks/grader-baseline/run.sh [--duration-s 2] [--out DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
cli=dist/libs/grading/src/baseline-cli.js
if [[ "${SG_SKIP_BUILD:-0}" != 1 ]]; then
  # Same steps as `npm run build`, but tsc-alias runs even when tsc reports an unrelated type
  # error (tsc still emits): the baseline only needs libs/grading, libs/domain and libs/variant.
  npx tsc -p tsconfig.build.json >/dev/null 2>&1 || echo "warning: tsc reported type errors (see npm run build); using the emitted dist/" >&2
  npx tsc-alias -p tsconfig.build.json
fi
[[ -f "$cli" ]] || { echo "missing $cli: run npm run build" >&2; exit 1; }
exec node "$cli" "$@"
