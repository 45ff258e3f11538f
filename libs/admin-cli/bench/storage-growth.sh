#!/usr/bin/env bash
# Storage micro-benchmark (postgres bytea vs MinIO): put/get latency and database growth per
# 1,000 submissions. Compiles storage-growth-bench.ts and what it imports into run/storage-bench/dist
# (private: a concurrent `npm run build` cannot break it), starts the two servers it needs.
#   bash libs/admin-cli/bench/storage-growth.sh [--count 1000] [--archive-bytes 1024] [--out results/storage]
# The same entry is in the main build: node dist/libs/admin-cli/src/storage-growth-bench.js ...
set -euo pipefail
cd "$(dirname "$0")/../../.."
bash infra/bin/servers up postgres minio >/dev/null
tsconfig=libs/admin-cli/bench/tsconfig.json
npx tsc -p "$tsconfig"
npx tsc-alias -p "$tsconfig"
exec node run/storage-bench/dist/libs/admin-cli/src/storage-growth-bench.js "$@"
