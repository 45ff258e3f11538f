// What `bench back-to-back <commit>` runs, as data: its options, the steps, the bench arguments of
// each side's commands and the run ids they are recorded under. Pure, so the unit tests hold the
// commands to what the bash script it replaced ran.
import { EXEC_MODES } from '../grader/grader-base';

export const STEPS = ['grader', 'small', 'calibrate', 'overload'] as const;
export type Step = (typeof STEPS)[number];
export type Side = 'ref' | 'new';
/** A hash cost: 1 (the paper-faithful login, scrypt 2^1) or the preset's own. */
export type Cost = 1 | 'default';
export const COSTS: Cost[] = [1, 'default'];

export interface BackToBackOptions {
  /** The reference commit (a worktree of it is prepared once per host). */
  ref: string;
  steps: Step[];
  presets: string[];
  /** The hash costs the small and calibrate steps measure (both by default). */
  costs: Cost[];
  /** Output folder of this comparison (log, commands, summary). */
  out: string;
  /** The reference's worktree (default ~/.cache/shellgrade/back-to-back/<ref>). */
  refDir: string;
  /** Peaks each calibration steps through before bisecting, per side and cost (it/s, ascending). */
  peaks: Record<Side, Record<`${Cost}`, number[]>>;
  /** The grader step's rounds (pairs) and exec modes; the small step's rounds. */
  graderRounds: number;
  smallRounds: number;
  graderModes: string[];
}

/**
 * Up to where each side fails on a fast host of this kind under the original's client (the issue
 * measured: the reference 8/s as shipped, 44/s at kdf 1 with admission off; the original 44/s):
 * the steps must reach a failure, the bisection does the rest.
 */
export const DEFAULT_PEAKS: BackToBackOptions['peaks'] = {
  ref: { '1': [4, 8, 16, 24, 32, 40, 48], default: [2, 4, 6, 8, 10, 12, 16, 20, 24] },
  new: { '1': [8, 16, 24, 32, 40, 48, 56, 64], default: [4, 8, 16, 24, 32, 40, 48, 56] },
};

export function parseSteps(v: string): Step[] {
  const steps = v.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = steps.filter((s) => !(STEPS as readonly string[]).includes(s));
  if (unknown.length || steps.length === 0) throw new Error(`--steps takes a comma-separated list of ${STEPS.join(', ')}; got ${JSON.stringify(v)}`);
  return steps as Step[];
}

export function parsePresets(v: string): string[] {
  const presets = v.split(',').map((s) => s.trim()).filter(Boolean);
  if (presets.length === 0 || presets.some((p) => !/^[a-z0-9][a-z0-9-]*$/.test(p))) throw new Error(`--presets takes a comma-separated list of preset names; got ${JSON.stringify(v)}`);
  return presets;
}

/** `kdf1,own`: the hash costs to measure, by their labels (own = the preset's own hash). */
export function parseCosts(v: string): Cost[] {
  const labels = v.split(',').map((c) => c.trim()).filter(Boolean);
  const byLabel: Record<string, Cost> = { kdf1: 1, own: 'default' };
  const unknown = labels.filter((l) => !(l in byLabel));
  if (unknown.length || labels.length === 0) throw new Error(`--costs takes kdf1, own or both (comma-separated); got ${JSON.stringify(v)}`);
  return COSTS.filter((c) => labels.some((l) => byLabel[l] === c));
}

export function parsePeaks(v: string): number[] {
  const peaks = v.split(',').map(Number);
  if (peaks.length === 0 || peaks.some((p) => !Number.isInteger(p) || p < 1) || peaks.some((p, i) => i > 0 && p <= peaks[i - 1])) throw new Error(`peaks are whole it/s, ascending: got ${JSON.stringify(v)}`);
  return peaks;
}

/** A commit as git names it: hex, a branch or a tag (nothing a shell would read as an option). */
export function parseCommit(v: string): string {
  if (!/^[\w][\w./-]*$/.test(v)) throw new Error(`<commit> must be a commit, branch or tag; got ${JSON.stringify(v)}`);
  return v;
}

export function costLabel(cost: Cost): string {
  return cost === 1 ? 'kdf1' : 'kdfdefault';
}

/** --kdf-cost for a cost (none: the preset's own). */
export function kdfArgs(cost: Cost): string[] {
  return cost === 1 ? ['--kdf-cost', '1'] : [];
}

/**
 * This tree places the client on its own CPUs by default for calibrations only; the reference
 * may predate placement. Both sides run unplaced, as the bash script ran them: the ratios compare
 * like with like.
 */
export function sideArgs(side: Side): string[] {
  return side === 'new' ? ['--placement', 'off'] : [];
}

/** Folder name of one of the comparison's tests: b2b-<stamp>-<side>-<preset>-<cost>[-<what>]. */
export function b2bRunId(stamp: string, side: Side, preset: string, cost: Cost, what?: string): string {
  return ['b2b', stamp, side, preset, costLabel(cost), ...(what ? [what] : [])].join('-');
}

/** One round's small-profile run of a side: one run (the rounds are the repetitions, each a pair of the sides). */
export function smallArgs(side: Side, preset: string, cost: Cost, runId: string): string[] {
  return ['run', '--variant', preset, '--profile', 'small', '--runs', '1', ...kdfArgs(cost), ...sideArgs(side), '--run-id', runId];
}

/**
 * One probe of a calibration under the original's client: one step (profile original: 10 s quiet,
 * 10 s ramp, 60 s at `peak`), the variant kept up between probes. No warm-up (the original had
 * none) where both harnesses can say so. A reference's harness that does not know `--warm-up
 * never` warms up before its first probe (its processes stay warm after): this tree's then warms
 * up too, so neither side's first probe is the only cold one.
 */
export function probeArgs(side: Side, preset: string, cost: Cost, peak: number, runId: string, refKnowsNever: boolean): string[] {
  const never = refKnowsNever ? ['--warm-up', 'never'] : [];
  return ['run', '--variant', preset, '--profile', 'original', '--peak', String(peak), '--runs', '1', '--keep-up', '--no-dashboard', ...kdfArgs(cost), ...sideArgs(side), ...never, '--run-id', runId];
}

/** This tree's first preset at twice its sustainable rate, students profile (retries honoured): goodput under overload. */
export function overloadArgs(preset: string, rate: number, runId: string): string[] {
  return ['run', '--variant', preset, '--profile', 'students', '--peak', String(2 * rate), '--runs', '1', ...sideArgs('new'), '--run-id', runId];
}

/** The grader step's exec modes by default: zygote and async (each 300 gradings a round). */
export const GRADER_MODES = ['zygote', 'async'];

/**
 * The grader step's command in a side's tree: `bench grader cpu` where the harness has it, else
 * the script that came before it (a reference predating both is given that script: portCpuTool).
 */
export function graderCommand(benchHasGraderCpu: boolean, modes: readonly string[] = GRADER_MODES): string[] {
  const args = ['--modes', modes.join(','), '--gradings', '300'];
  return benchHasGraderCpu ? ['npm', 'run', '--silent', 'bench', '--', 'grader', 'cpu', ...args] : ['bash', 'benchmarks/grader-baseline/cpu.sh', ...args];
}

/** The sides' order in `round` (1-based) of a paired step: ref first in odd rounds, new first in even ones, so a drift within rounds weighs on both sides alike. */
export function pairOrder(round: number): Side[] {
  return round % 2 ? ['ref', 'new'] : ['new', 'ref'];
}

/** The grader step's exec modes, each one `bench grader cpu` knows (its EXEC_MODES). */
export function parseGraderModes(v: string): string[] {
  const modes = v.split(',').map((m) => m.trim()).filter(Boolean);
  const known: readonly string[] = EXEC_MODES;
  if (modes.length === 0 || modes.some((m) => !known.includes(m))) throw new Error(`--grader-modes takes exec modes among ${known.join(', ')}, comma-separated; got ${JSON.stringify(v)}`);
  return modes;
}

/** The last commit holding benchmarks/grader-baseline/cpu.sh and cpu-per-grading.ts, which an older reference is given. */
export const CPU_SCRIPT_COMMIT = '022e2ce';
/** Rounds of the grader step by default: pairs enough for an interval of their ratio (libs/stats pairedRatio). */
export const GRADER_ROUNDS = 5;
/** Rounds of the small step by default (a small run a side each: the three runs it always made, now paired). */
export const SMALL_ROUNDS = 3;
