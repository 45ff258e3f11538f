#!/usr/bin/env bash
# The whole test suite, from a fresh clone: install, build, static checks, unit tests,
# then integration and end-to-end tests against real servers started here.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

step() { printf '\n== %s\n' "$*"; }
cleanup() { npm run --silent variant -- down >/dev/null 2>&1 || true; }
trap cleanup EXIT

step "lint and layer rules"
# No separate typecheck: the build (setup.sh) compiles the tests with the code, one program
# (tsconfig.build.json extends tsconfig.json), so a type error in either has already failed it.
# Through nx: @nx/enforce-module-boundaries (the tag rules) needs the computed project graph.
npm run --silent lint
npm run --silent depcruise

step "unit tests"
# Two workers, one per core: Jest's default (cores - 1) runs them in band on a 2-core host.
npx jest --selectProjects unit --maxWorkers=2

step "native servers"
bash infra/bin/servers up postgres redis rabbitmq minio jaeger

step "integration tests"
# *.parallel.int.ts touch nothing shared (k6 against a stub of its own): two workers, one per core;
# they wait on k6's schedules, so a second one costs no CPU the first needs. The others one at a time.
npx jest --selectProjects integration-parallel --maxWorkers=2
npx jest --selectProjects integration --runInBand

step "end-to-end tests"
npx jest --selectProjects e2e --runInBand
