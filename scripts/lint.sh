#!/usr/bin/env bash
# ESLint over the whole tree in one process (one per project through nx took 3× as long).
# @nx/enforce-module-boundaries reads nx's cached project graph and silently skips its checks
# when there is none: the graph is computed first. ESLint's cache is keyed by file content,
# but a file's boundary verdict also depends on the graph (a cycle closed elsewhere):
# one cache per graph, so a changed graph starts from a clean cache.
set -euo pipefail
cd "$(dirname "$0")/.."
npx nx show projects >/dev/null
graph=.nx/workspace-data/project-graph.json
[ -s "$graph" ] || { echo "lint: nx wrote no project graph at $graph: the module-boundary rule would be skipped" >&2; exit 1; }
# The graph without its computedAt stamp, which changes on every computation.
key=$(node -e 'const g = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); delete g.computedAt; console.log(require("crypto").createHash("sha1").update(JSON.stringify(g)).digest("hex").slice(0, 12))' "$graph")
# The web app's API types are the contract's, regenerated (needs the build: dist/libs/api-contract).
node apps/web/api-types.mjs --check
exec npx eslint . --cache --cache-location ".nx/eslint-cache/$key/" "$@"
