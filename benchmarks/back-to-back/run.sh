#!/usr/bin/env bash
# Back to back with a reference commit on this one host (issue 31): the same measurements of the
# reference (its own harness and k6 client, in a git worktree) and of this tree, interleaved
# config by config so a host's drift falls on both sides alike. Hosts of this kind differ up to
# 2x in speed: only the ratios of one run of this script count.
#   bash benchmarks/back-to-back/run.sh [--ref 6b185a2] [--steps grader,small,calibrate,overload]
#        [--presets naked-mon-zygote,msa-zygote-1-2] [--out results/back-to-back/<stamp>]
# Steps:
#   grader     CPU ms per grading (cpu.sh, zygote and async), three alternating rounds a side
#   small      bench run --profile small (3 runs) of each preset, kdf cost 1 and the default:
#              CPU per iteration per process group (grading, Node, PostgreSQL) and k6's own
#   calibrate  the sustainable rate of the first preset (SLO: SPS p95 <= 2 s, 0 KO), both costs
#              (calibrate-default, calibrate-kdf1: one of them); the reference steps 1 it/s at a
#              time (it has no bisection), this tree bisects
#   overload   this tree's first preset at 2x its sustainable rate (secure default), profile
#              students: goodput, login p95, refusals, audit
# The machine must be quiet: every command holds the harness lock; nothing else may run.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=$PWD
ref=6b185a2
steps=grader,small,calibrate,overload
presets=naked-mon-zygote,msa-zygote-1-2
out=results/back-to-back/$(date -u +%Y%m%dT%H%M%SZ)
while [ $# -gt 0 ]; do
  case $1 in
    --ref) ref=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --presets) presets=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "back-to-back: unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
refdir=${SG_B2B_REF_DIR:-$HOME/.cache/shellgrade/back-to-back/$ref}
log() { echo "[back-to-back $(date -u +%H:%M:%S)] $*" | tee -a "$out/log.txt" >&2; }
IFS=, read -r -a preset_list <<< "$presets"
first=${preset_list[0]}

# The reference: its own worktree, dependencies, build and exercise catalog (once per host).
prepare_ref() {
  if [ ! -f "$refdir/.b2b-ready" ]; then
    log "preparing the reference $ref in $refdir"
    git worktree add --detach "$refdir" "$ref" 2>/dev/null || git -C "$refdir" checkout --detach "$ref"
    # Its own setup script: npm packages, servers and tools (cached per host), build, catalog.
    (cd "$refdir" && bash scripts/setup.sh) >> "$out/ref-setup.log" 2>&1
    touch "$refdir/.b2b-ready"
  fi
  git -C "$refdir" rev-parse HEAD > "$out/ref-commit.txt"
  git rev-parse HEAD > "$out/new-commit.txt"
}

# Either side's servers and variant down before the other side starts its own.
quiet_down() {
  (cd "$1" && npm run --silent variant -- down >/dev/null 2>&1 || true; bash infra/bin/servers down >/dev/null 2>&1 || true)
}

# The tree a side runs from.
side_dir() { if [ "$1" = ref ]; then echo "$refdir"; else echo "$here"; fi; }

# side (ref|new), then the bench arguments; the run id is recorded with the side and the arguments.
bench() {
  local side=$1; shift
  quiet_down "$here"; quiet_down "$refdir"
  log "$side: npm run bench -- $*"
  (cd "$(side_dir "$side")" && npm run --silent bench -- "$@") >> "$out/$side.log" 2>&1 || log "$side: exited $? (see $side.log)"
  echo "$side $*" >> "$out/commands.txt"
}

# CPU per grading of the paper exercise (benchmarks/grader-baseline/cpu.sh: a cpuacct group, start-up
# left out), reference and this tree alternately. The reference may predate cpu.sh: this tree's
# copy is compiled against the reference's grader (its baseline loop then lived in libs/admin-cli).
port_cpu_tool() {
  # (ported again at every run: an earlier run's port may predate a change of this tree's copy)
  git -C "$refdir" cat-file -e HEAD:benchmarks/grader-baseline/cpu-per-grading.ts 2>/dev/null && return
  sed "s#from './grader-baseline-runner'#from '../../libs/admin-cli/src/grader-baseline-runner'#" benchmarks/grader-baseline/cpu-per-grading.ts > "$refdir/benchmarks/grader-baseline/cpu-per-grading.ts"
  cat > "$refdir/benchmarks/grader-baseline/tsconfig.cpu.json" <<'JSON'
{
  "extends": "../../tsconfig.build.json",
  "compilerOptions": { "outDir": "../../run/grader-cpu/dist", "rootDir": "../.." },
  "include": ["../../libs/grading/src/**/*.ts", "../../libs/domain/src/**/*.ts", "../../libs/variant/src/**/*.ts", "../../libs/admin-cli/src/grader-baseline-runner.ts", "cpu-per-grading.ts", "../src/machine-speed.ts"]
}
JSON
  sed -e 's#benchmarks/grader-baseline/tsconfig.json#benchmarks/grader-baseline/tsconfig.cpu.json#' -e 's#run/grader-baseline/dist/#run/grader-cpu/dist/#' benchmarks/grader-baseline/cpu.sh > "$refdir/benchmarks/grader-baseline/cpu.sh"
}

step_grader() {
  port_cpu_tool
  for round in 1 2 3; do
    for side in ref new; do
      quiet_down "$here"; quiet_down "$refdir"
      log "$side: grader CPU, round $round"
      (cd "$(side_dir "$side")" && bash benchmarks/grader-baseline/cpu.sh --modes zygote,async --gradings 300) 2>&1 | tee -a "$out/$side.log" | grep -E 'CPU ms per grading|speed probe' | sed "s/^/$side round $round: /" >> "$out/grader-cpu.txt" || log "$side: cpu.sh failed (see $side.log)"
    done
  done
}

kdf_args() { [ "$1" = default ] || echo "--kdf-cost $1"; }

step_small() {
  for preset in "${preset_list[@]}"; do
    for kdf in 1 default; do
      for side in ref new; do
        local extra=""; [ "$side" = new ] && extra="--placement off"
        # shellcheck disable=SC2046
        bench "$side" run --variant "$preset" --profile small $(kdf_args $kdf) $extra --run-id "b2b-$(date -u +%Y%m%dT%H%M%SZ)-$side-$preset-kdf$kdf"
      done
    done
  done
}

# The sustainable rate of the first preset at one hash cost, reference then this tree.
calibrate_at() {
  # Up to where each side fails on a fast host of this kind (2026-11-28: the reference sustained 13 it/s at
  # the default; 2026-12-02 at kdf 1: the reference 30, this tree 44): the peaks must reach a failure.
  local kdf=$1 ref_peaks=8,10,11,12,13,14,15,16,18 new_peaks=8,12,16,20,24,28
  [ "$kdf" = 1 ] && ref_peaks=12,14,16,18,20,22,24,26,28,30,32,34 && new_peaks=16,24,32,40,44,48,52
  # shellcheck disable=SC2046
  bench ref calibrate --variant "$first" --peaks $ref_peaks $(kdf_args "$kdf")
  # shellcheck disable=SC2046
  bench new calibrate --variant "$first" --peaks $new_peaks $(kdf_args "$kdf") --placement off
}
step_calibrate() { calibrate_at default; calibrate_at 1; }
step_calibrate-default() { calibrate_at default; }
step_calibrate-kdf1() { calibrate_at 1; }

step_overload() {
  local rate
  rate=$(node -e '
    const fs = require("fs"), path = require("path");
    const dir = process.argv[1], variant = process.argv[2];
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(`-${variant}-calibration.json`)).sort();
    if (!files.length) process.exit(1);
    const c = JSON.parse(fs.readFileSync(path.join(dir, files.at(-1)), "utf8"));
    console.log(c.sustainableRate ?? "");' "$here/results" "$first") || { log "overload: no calibration of $first in results/"; return; }
  [ -n "$rate" ] || { log "overload: the newest calibration of $first names no sustainable rate"; return; }
  log "overload: $first at 2 x $rate it/s"
  bench new run --variant "$first" --profile students --peak $((2 * rate)) --runs 1 --placement off --run-id "b2b-$(date -u +%Y%m%dT%H%M%SZ)-new-$first-overload"
}

prepare_ref
log "steps $steps, presets $presets, reference $(cat "$out/ref-commit.txt"), this tree $(cat "$out/new-commit.txt")"
IFS=, read -r -a step_list <<< "$steps"
for s in "${step_list[@]}"; do "step_$s"; done
quiet_down "$here"; quiet_down "$refdir"
log "done: $out (commands.txt lists each command; each side's run folders are under its results/)"
