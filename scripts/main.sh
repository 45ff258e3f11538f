#!/usr/bin/env bash
# The main job on a fresh machine: install, bring up the default variant (naked-mon),
# run a short benchmark of the paper's scenario R and print the results table.
# PROFILE=small|smoke|paper and VARIANT=<preset> override the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh
npm run --silent bench -- run --variant "${VARIANT:-naked-mon}" --profile "${PROFILE:-short}" --runs "${RUNS:-1}"
