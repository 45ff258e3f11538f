#!/usr/bin/env bash
# Where one sandboxed grading's CPU goes, per exec mode (issue 21): the grader-only loop under
# `perf record -a -g`. Writes results/grader-profile/<timestamp>/profile.{md,json} and per mode
# perf-<mode>.txt (`perf script`: open it in speedscope for the flame graph). Needs perf
# (apt-get install linux-perf) and root; ~25 s with the defaults.
#   bash benchmarks/grader-baseline/profile.sh [--modes pool,zygote] [--concurrency 2] [--duration-s 8] [--out DIR]
exec bash "$(dirname "$0")/node-tool.sh" grader-profile "$@"
