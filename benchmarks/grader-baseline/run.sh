#!/usr/bin/env bash
# Grader-only baseline (issue 2): gradings/s and ms/grading of the paper-equivalent exercise,
# no HTTP. Rows: async x1, async x2, blocking x1/x2 under bwrap, and async x1/x2 without isolation.
# Writes results/grader-baseline/<timestamp>.json and latest.json; ~20 s with the default 2.5 s/row.
#   bash benchmarks/grader-baseline/run.sh [--duration-s 2.5] [--out DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
cli=dist/libs/grading/src/baseline-cli.js
if [[ "${SG_SKIP_BUILD:-0}" != 1 ]]; then
  # tsc still emits when an unrelated file has type errors; the check below is what matters.
  npm run --silent build >/dev/null 2>&1 || echo "warning: npm run build reported errors, using the emitted dist/" >&2
fi
[[ -f "$cli" ]] || { echo "missing $cli: run npm run build" >&2; exit 1; }
exec node "$cli" "$@"
