#!/usr/bin/env bash
# Grader-only baseline (issue 2): gradings/s and ms/grading of the paper-equivalent exercise,
# no HTTP. Rows (bwrap): async x1, x2, blocking x1, x2, pool x1, x2, zygote x1, x2; and async x1, x2 without isolation.
# Writes results/grader-baseline/<timestamp>.json and latest.json; ~25 s with the default 2 s/row.
#   bash benchmarks/grader-baseline/run.sh [--duration-s 2] [--out DIR]
# Compiles only the libraries it needs into run/grader-baseline/dist (private: a concurrent
# `npm run build` of the whole repo cannot break it).
set -euo pipefail
cd "$(dirname "$0")/../.."
tsconfig=benchmarks/grader-baseline/tsconfig.json
npx tsc -p "$tsconfig"
npx tsc-alias -p "$tsconfig"
exec node run/grader-baseline/dist/libs/admin-cli/src/grader-baseline.js "$@"
