#!/usr/bin/env bash
# CPU ms per grading of the paper exercise per exec mode, start-up left out (issue 31):
# this process and all it starts, from a cpuacct control group of its own (cgroup v1, root).
# Writes results/grader-cpu/<timestamp>.json.
#   bash benchmarks/grader-baseline/cpu.sh [--modes zygote,async] [--concurrency 1] [--gradings 300]
set -euo pipefail
cd "$(dirname "$0")/../.."
tsconfig=benchmarks/grader-baseline/tsconfig.json
npx tsc -p "$tsconfig"
npx tsc-alias -p "$tsconfig"
group=/sys/fs/cgroup/cpuacct/sg-grader-cpu-$$
mkdir "$group"
echo $$ > "$group/cgroup.procs"
node run/grader-baseline/dist/benchmarks/grader-baseline/cpu-per-grading.js "$@" && status=0 || status=$?
echo $$ > /sys/fs/cgroup/cpuacct/cgroup.procs
rmdir "$group" 2>/dev/null || true # a sandbox process still exiting keeps it a moment: an empty group is harmless
exit $status
