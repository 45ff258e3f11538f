#!/usr/bin/env bash
# The main job on a fresh machine: install, bring up the default variant (naked-mon),
# run a short benchmark of the paper's scenario R and print the results table.
#   npm run main [-- --variant V --profile P]
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
bash infra/bin/servers up postgres
bash benchmarks/main.sh "$@"
