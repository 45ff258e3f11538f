#!/usr/bin/env bash
# README's benchmark job: bring the default variant (naked-mon) up traced, run scenario R once with
# the `short` profile, print the paper-shaped table, the trace breakdown (traces/) and the CPU per
# iteration per process group; bring the variant down unless it was already up.
#   bash benchmarks/main.sh [--variant V] [--profile P]
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f dist/benchmarks/src/cli.js ]] || npm run build
exec node dist/benchmarks/src/cli.js main "$@"
