#!/usr/bin/env bash
# Installs everything shellgrade needs on a fresh machine of this kind, idempotently:
# npm packages, native servers and tools (Debian packages, Go-built MinIO/Jaeger/k6),
# the compiled TypeScript and the exercise catalog's generated archives.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "npm packages"
# `npm install`, not `npm ci`: the registry reachable here serves only this platform's optional
# packages, so the lock file lacks the other platforms' entries and `npm ci` refuses it.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm install --no-audit --no-fund
fi

step "native servers and tools"
bash infra/bin/servers install

# The graders' interpreter (built once per machine, infra/servers/tools.sh) and the research
# tools' one (pip packages: kubernetes-validate, line-solver) are two: the first must stay free of
# tarfile CVEs and of site-packages, the second needs pip.
grader_python="${SG_PYTHON:-$(bash infra/bin/servers tool-path grader-python)}"
tools_python="${SG_TOOLS_PYTHON:-$(bash scripts/tools-python.sh)}"

step "offline validators"
# kubernetes-validate checks the generated Kubernetes manifests against bundled schemas (no cluster).
"$tools_python" -m kubernetes_validate --version >/dev/null 2>&1 || "$tools_python" -m pip install --quiet kubernetes-validate==1.37.0

step "TypeScript build"
npm run build

step "exercise catalog archives"
"$grader_python" libs/grading/catalog/build.py

step "queueing-model solver (benchmarks/models, PyPI line-solver)"
# Pinned: the model's unit tests check its MVA numbers against closed forms.
"$tools_python" -m pip install --quiet --disable-pip-version-check --root-user-action=ignore 'line-solver==3.0.8.0'
