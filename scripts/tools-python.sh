#!/usr/bin/env bash
# Prints the Python that runs the research tools (pip packages: kubernetes-validate, line-solver):
# SG_TOOLS_PYTHON, else the first 3.11+ interpreter with pip found here. Never the graders' one.
set -euo pipefail
candidates=("${SG_TOOLS_PYTHON:-}" "$HOME/.pyenv/versions/3.11.7/bin/python3" python3.11 python3.12 python3)
for c in "${candidates[@]}"; do
  [[ -n $c ]] || continue
  path=$(command -v "$c" 2>/dev/null) || continue
  "$path" -c 'import sys, pip; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1 && { printf '%s\n' "$path"; exit 0; }
done
echo "no Python >= 3.11 with pip found for the research tools (set SG_TOOLS_PYTHON)" >&2
exit 1
