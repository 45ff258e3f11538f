#!/usr/bin/env bash
# The whole test suite, from a fresh clone: install, build, static checks, unit tests,
# then integration and end-to-end tests against real servers started here.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

step() { printf '\n== %s\n' "$*"; }
cleanup() { npm run --silent variant -- down >/dev/null 2>&1 || true; }
trap cleanup EXIT

# The native servers come up while the static checks and unit tests run (starting them is mostly
# waiting for daemons; unit tests use fakes, nothing here reads the servers): their log is shown,
# and their failure fails the suite, before the first stage that needs them.
servers_log=$(mktemp)
bash infra/bin/servers up postgres redis rabbitmq minio jaeger >"$servers_log" 2>&1 &
servers_pid=$!

step "lint and layer rules"
# No separate typecheck: the build (setup.sh) compiles the tests with the code, one program
# (tsconfig.build.json extends tsconfig.json), so a type error in either has already failed it.
# Through nx: @nx/enforce-module-boundaries (the tag rules) needs the computed project graph.
# ESLint and dependency-cruiser are one thread each: side by side, one per core.
depcruise_log=$(mktemp)
npm run --silent depcruise >"$depcruise_log" 2>&1 &
depcruise_pid=$!
lint_status=0
npm run --silent lint || lint_status=$?
depcruise_status=0
wait "$depcruise_pid" || depcruise_status=$?
cat "$depcruise_log"
[ "$lint_status" -eq 0 ] && [ "$depcruise_status" -eq 0 ] || exit 1

step "unit tests"
# Two workers, one per core: Jest's default (cores - 1) runs them in band on a 2-core host.
npx jest --selectProjects unit --maxWorkers=2

step "native servers"
servers_status=0
wait "$servers_pid" || servers_status=$?
cat "$servers_log"
[ "$servers_status" -eq 0 ] || { echo "native servers did not come up (exit $servers_status)" >&2; exit 1; }

step "integration tests"
# *.parallel.int.ts touch nothing shared (k6 against a stub of its own): two workers, one per core;
# they wait on k6's schedules, so a second one costs no CPU the first needs. The others one at a time.
npx jest --selectProjects integration-parallel --maxWorkers=2
npx jest --selectProjects integration --runInBand

step "end-to-end tests"
npx jest --selectProjects e2e --runInBand
