#!/usr/bin/env bash
# The main job on a fresh machine: install, bring up the default variant (naked-mon), run a short
# traced benchmark of the paper's scenario R and print the results table, where the SPS latency
# lives along its traces (Jaeger) and where the CPU goes per process group.
#   npm run main [-- --variant V --profile P]
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
# Jaeger beside PostgreSQL: the run is traced, its report ends with the trace breakdown.
bash infra/bin/servers up postgres jaeger
bash benchmarks/main.sh "$@"
