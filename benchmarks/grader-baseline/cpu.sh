#!/usr/bin/env bash
# CPU ms per grading of the paper exercise per exec mode, start-up left out (issue 31):
# this process and all sandbox processes, from /proc/self/stat. Writes results/grader-cpu/<timestamp>.json.
#   bash benchmarks/grader-baseline/cpu.sh [--modes zygote,async] [--concurrency 1] [--gradings 300]
set -euo pipefail
cd "$(dirname "$0")/../.."
tsconfig=benchmarks/grader-baseline/tsconfig.json
npx tsc -p "$tsconfig"
npx tsc-alias -p "$tsconfig"
exec node run/grader-baseline/dist/benchmarks/grader-baseline/cpu-per-grading.js "$@"
