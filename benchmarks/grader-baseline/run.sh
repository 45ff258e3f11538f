#!/usr/bin/env bash
# Grader-only baseline (issue 2): gradings/s and ms/grading of the paper-equivalent exercise,
# no HTTP. Rows (bwrap): async x1, x2, blocking x1, x2, pool x1, x2, zygote x1, x2; and async x1, x2 without isolation.
# Writes results/grader-baseline/<timestamp>.json and latest.json; ~25 s with the default 2 s/row.
#   bash benchmarks/grader-baseline/run.sh [--duration-s 2] [--out DIR]
exec bash "$(dirname "$0")/node-tool.sh" grader-baseline "$@"
