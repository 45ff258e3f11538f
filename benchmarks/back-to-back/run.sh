#!/usr/bin/env bash
# Back to back with a reference commit on this one host: now `npm run bench -- back-to-back <commit>`
# (benchmarks/src/back-to-back/). This wrapper keeps the former flags working:
#   bash benchmarks/back-to-back/run.sh [--ref 3db71e2] [--steps grader,small,calibrate,overload]
#        [--presets naked-mon-zygote,msa-zygote-1-2] [--out results/back-to-back/<stamp>]
set -euo pipefail
cd "$(dirname "$0")/../.."
ref=3db71e2
args=()
while [ $# -gt 0 ]; do
  case $1 in
    --ref) ref=$2; shift 2 ;;
    --steps|--presets|--out|--ref-dir|--ref-peaks|--new-peaks) args+=("$1" "$2"); shift 2 ;;
    *) echo "back-to-back: unknown option $1" >&2; exit 2 ;;
  esac
done
exec npm run --silent bench -- back-to-back "$ref" "${args[@]}"
