// The vocabulary of `npm run bench`: every option name that more than one subcommand takes, with
// its one meaning, its one argument and its one parser. A subcommand adds one with `opt(name)`
// and may say more in its own help (its default, its unit in its context), never something else:
// `--out` is a folder wherever it appears, `--run` a finished run, `--variant` one preset. A new
// meaning gets a new name here. benchmarks/test/options.spec.ts walks the command tree and fails
// when one name carries two meanings, or an option shared by two subcommands is not from here.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { parseCpuList } from './placement/cpu-list';
import { TESTBEDS, type Testbed } from './placement/testbed';
import { CPU_MODELS } from './models/predict';

export function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`"${v}" must be a positive integer`);
  return n;
}

export function nonNegative(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`"${v}" must be a non-negative number`);
  return n;
}

export function positiveNumber(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`"${v}" must be a positive number`);
  return n;
}

export function onOff(v: string): 'on' | 'off' {
  if (v !== 'on' && v !== 'off') throw new InvalidArgumentError('must be on or off');
  return v;
}

/** A comma-separated list, blanks dropped. */
export function commaList(v: string): string[] {
  return v.split(',').map((x) => x.trim()).filter(Boolean);
}

/** Preset names, comma-separated (nothing a shell would read as an option). */
export function presetList(v: string): string[] {
  const presets = commaList(v);
  if (presets.length === 0 || presets.some((p) => p.startsWith('-'))) throw new InvalidArgumentError(`"${v}" is not a comma-separated list of presets`);
  return presets;
}

/** Positive integers, comma-separated (users per step). */
export function positiveIntList(v: string): number[] {
  return v.split(',').map((x) => positiveInt(x));
}

/** Repeatable: each occurrence adds one run folder. */
export function runFolders(v: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), v];
}

function cpuList(v: string): string {
  try {
    if (parseCpuList(v).length === 0) throw new Error('empty');
  } catch {
    throw new InvalidArgumentError(`"${v}" is not a CPU list (e.g. 1, 0-1, 0,2)`);
  }
  return v;
}

function oneOf<T extends string>(values: readonly T[]): (v: string) => T {
  const parse = (v: string): T => {
    if (!(values as readonly string[]).includes(v)) throw new InvalidArgumentError(`must be ${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`);
    return v as T;
  };
  return parse;
}

const warmUpMode = oneOf(['auto', 'always', 'never'] as const);
const arrivals = oneOf(['even', 'exponential'] as const);
const testbed = oneOf<Testbed>(TESTBEDS);
/** Paper 001's request classes: s1, s2, a comma list of them, or both. */
export function sweepClasses(v: string): ('s1' | 's2')[] {
  const list = v === 'both' ? ['s1', 's2'] : v.split(',');
  if (list.length === 0 || list.some((c) => c !== 's1' && c !== 's2')) throw new InvalidArgumentError('must be s1, s2 or both');
  return list as ('s1' | 's2')[];
}

function scaleFactor(v: string): number {
  const n = Number(v);
  if (!(n > 0 && n <= 1)) throw new InvalidArgumentError(`"${v}" must be a scale factor in (0, 1]`);
  return n;
}

interface OptionSpec {
  flags: string;
  /** What the name means, wherever it appears: the class every subcommand's own help belongs to. */
  meaning: string;
  /** The help line when the subcommand says nothing more. */
  description: string;
  parse?: (value: string, previous: never) => unknown;
}

/** The one table. Names used by one subcommand only stay with it (their meaning cannot clash until a second one wants them). */
export const OPTIONS = {
  // What runs
  variant: { flags: '--variant <name>', meaning: 'one variant: a preset name (infra/variants/<name>.yaml) or a spec file', description: 'variant preset (infra/variants/<name>.yaml)' },
  variants: { flags: '--variants <list>', meaning: 'several variant presets, comma-separated, in this order', description: 'variant presets, comma-separated', parse: presetList },
  profile: { flags: '--profile <name>', meaning: 'a k6 load profile of k6/profiles.json', description: 'load profile from k6/profiles.json' },
  kdfCost: { flags: '--kdf-cost <n>', meaning: "the spec's auth.kdfCost for this command (log2 of scrypt's N)", description: "override the spec's auth.kdfCost (log2 of scrypt's N; 1 ~ the original's salted SHA-512: a paper-faithful login cost, loopback only)", parse: positiveInt },
  tracing: { flags: '--tracing <on|off>', meaning: "the spec's tracing switch for this command", description: "override the spec's tracing switch", parse: onOff },
  keepUp: { flags: '--keep-up', meaning: 'leave the variant running afterwards', description: 'leave the variant running afterwards' },
  // How much load, and how long
  runs: { flags: '--runs <n>', meaning: 'measured runs of one test (one configuration)', description: "runs per test (default: the profile's)", parse: positiveInt },
  pauseS: { flags: '--pause-s <s>', meaning: 'seconds of pause between the runs of one test', description: "pause between runs in seconds (default: the profile's)", parse: nonNegative },
  peak: { flags: '--peak <n>', meaning: "the offered rate of the profile's sustained stage (iterations/s)", description: "override the profile peak (iterations/s); suites: the first step's rate (others scaled alike), a soak's rate", parse: nonNegative },
  rate: { flags: '--rate <it/s>', meaning: 'an offered rate of scenario R (iterations/s)', description: 'offered iterations of scenario R per second', parse: positiveNumber },
  saturation: { flags: '--saturation <it/s>', meaning: "a variant's sustainable (saturation) rate, iterations/s, as bench calibrate measures it", description: "the sustainable rate (default: the newest bench calibrate of the variant)", parse: positiveNumber },
  rampS: { flags: '--ramp-s <s>', meaning: 'seconds of ramp before a measured window', description: 'override the ramp stage length', parse: nonNegative },
  holdS: { flags: '--hold-s <s>', meaning: 'seconds of the sustained (measured) window', description: 'override the sustained stage length', parse: positiveNumber },
  drainTimeoutS: { flags: '--drain-timeout-s <s>', meaning: 'upper bound (seconds) of the post-run drain before the audit', description: 'upper bound of the post-run drain before the audit (default 120)', parse: nonNegative },
  vus: { flags: '--vus <list>', meaning: 'users of a closed loop, one number per step, comma-separated', description: "users per step, comma-separated (default: the profile's)", parse: positiveIntList },
  class: { flags: '--class <s1|s2|both>', meaning: 'paper 001 request classes', description: 'request classes (paper 001: S1 small one-service requests, S2 the session report)', parse: sweepClasses },
  productions: { flags: '--productions <n>', meaning: 'graded productions per statement of the seeded session', description: 'graded productions per statement of the seeded session written for S2', parse: positiveInt },
  // One test's client
  cpuProf: { flags: '--cpu-prof', meaning: 'V8 CPU profiles of every service over the test', description: 'V8 CPU profiles of every service over the test -> profiles/ and profiles.md (JavaScript CPU by component, top functions)' },
  raw: { flags: '--raw', meaning: 'keep every k6 sample', description: 'also keep every k6 sample (--out json=raw-run-N.json.gz)' },
  apdexTMs: { flags: '--apdex-t-ms <ms>', meaning: 'the Apdex threshold T in ms', description: 'Apdex threshold T (tolerating <= 4T; default 1500 as gatling-report)', parse: nonNegative },
  connectionReuse: { flags: '--connection-reuse <on|off>', meaning: "the profile's connection reuse between users", description: "override the profile's connection reuse between users (k6 noVUConnectionReuse)", parse: onOff },
  arrivals: { flags: '--arrivals <even|exponential>', meaning: "the profile's inter-arrival times", description: "override the profile's inter-arrival times", parse: arrivals },
  powerIdleW: { flags: '--power-idle-w <w>', meaning: 'energy estimate: watts per logical CPU idle', description: 'energy ESTIMATE model: watts per logical CPU idle', parse: nonNegative },
  powerMaxW: { flags: '--power-max-w <w>', meaning: 'energy estimate: watts per logical CPU at 100%', description: 'energy ESTIMATE model: watts per logical CPU at 100%', parse: nonNegative },
  dashboard: { flags: '--no-dashboard', meaning: "skip k6's web dashboard export", description: "skip k6's web dashboard HTML export per run" },
  warmUp: { flags: '--warm-up <auto|always|never>', meaning: 'whether the test warms the variant up first', description: 'auto: no warm-up when the very same processes served scenario R in the last 10 min (recorded in run/bench-warm.json); always: warm up anyway; never: none (the original load test had none)', parse: warmUpMode },
  // Where the processes run
  placement: { flags: '--placement <on|off>', meaning: 'k6 and the harness on cpusets apart from the system under test', description: 'k6 and the harness on cpusets apart from the system under test (default: on for findings, stress and spike suites and the students profile, off otherwise; unavailable, and said so, without a usable cpuset)', parse: onOff },
  clientCpus: { flags: '--client-cpus <list>', meaning: 'CPUs of the client (k6 + harness)', description: 'CPUs of the client (k6 + harness), e.g. 1 (turns placement on; default: the highest CPU)', parse: cpuList },
  sutCpus: { flags: '--sut-cpus <list>', meaning: 'CPUs of the system under test', description: 'CPUs of the system under test (services, native servers, sandboxes), e.g. 0 (turns placement on; default: the others)', parse: cpuList },
  testbed: {
    flags: '--testbed <unscaled|scaled>',
    meaning: 'the testbed: shared CPUs or the scale model',
    description: 'unscaled (default): the processes share the CPUs of the system under test; scaled: the scale model — each replica (with its sandboxes), PostgreSQL, HAProxy, Redis, the broker gets one paper CPU × s of CFS quota, s fitting the largest configuration to those CPUs (docs/design.md, testing claims about scale)',
    parse: testbed,
  },
  scale: { flags: '--scale <s>', meaning: "the scale model's factor s", description: 'with --testbed scaled: the scale factor s in (0, 1] instead of the one fitting the plan (runs compared across plans)', parse: scaleFactor },
  // Studies of many runs
  smoke: { flags: '--smoke', meaning: 'the study end to end at its shortest shape: proves the machinery, decides nothing', description: 'the machinery end to end at the shortest shape, deciding nothing' },
  dryRun: { flags: '--dry-run', meaning: 'print what it would run, run nothing', description: 'print the plan and run nothing' },
  seed: { flags: '--seed <n>', meaning: 'the seed of the run order (recorded)', description: 'seed of the run order (default: from the clock; recorded)', parse: positiveNumber },
  budgetMin: { flags: '--budget-min <min>', meaning: 'a time budget in minutes', description: 'time budget, minutes', parse: positiveNumber },
  continue: { flags: '--continue [dir]', meaning: 'more runs for a recorded study, the ones it lacks (default: the newest), then judge everything recorded', description: 'add the runs the study recorded in <dir> lacks (default: the newest), then evaluate everything recorded' },
  evaluate: { flags: '--evaluate [dir]', meaning: 'run nothing: judge the runs a recorded study holds (default: the newest)', description: 'run nothing: evaluate the runs recorded in <dir> (default: the newest)' },
  // Models
  demands: { flags: '--demands <run-folder>', meaning: 'a finished run whose measured CPU gives the service demands (repeatable where several are read)', description: 'run folder whose measured CPU gives the service demands', parse: runFolders },
  cpuModel: { flags: '--cpu-model <model>', meaning: 'how stations share the cores in a queueing model', description: 'shared: stations wait for the shared cores (two-level model); bound: stations alone, the cores only as a bound', parse: oneOf(CPU_MODELS) },
  // The grader alone
  modes: { flags: '--modes <list>', meaning: 'grader exec modes, comma-separated (async, blocking, pool, zygote)', description: 'exec modes, comma-separated', parse: commaList },
  concurrency: { flags: '--concurrency <n>', meaning: 'gradings at once (the warm pool size and grading slots)', description: 'gradings at once', parse: positiveInt },
  // Micro-benchmarks (interleaved rounds of a repeated operation)
  rounds: { flags: '--rounds <n>', meaning: 'measured rounds of a micro-benchmark, its settings interleaved within each', description: 'measured rounds', parse: positiveInt },
  perRound: { flags: '--per-round <n>', meaning: 'repetitions of each setting within one round', description: 'repetitions of each setting per round', parse: positiveInt },
  durationS: { flags: '--duration-s <s>', meaning: 'seconds a grader-only loop runs per row', description: 'seconds per row, in (0, 60]', parse: positiveNumber },
  // Inputs and outputs
  run: { flags: '--run <run-id>', meaning: 'a finished run: results/<run-id>, or the path of its folder', description: 'a finished run: results/<run-id> or its folder' },
  runId: { flags: '--run-id <id>', meaning: 'the name of the results folder this command writes (results/<id>)', description: 'results folder name (default: <utc stamp>-<variant>-<profile>)' },
  out: { flags: '--out <dir>', meaning: 'the folder this command writes its output to', description: 'output folder' },
  outFile: { flags: '--out-file <file>', meaning: 'the one file this command writes (- for stdout where said)', description: 'write here' },
} as const satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;

const MADE = new WeakMap<Option, OptionName>();

export interface OptionUse {
  /** This subcommand's help line (its default, its unit in context): the meaning stays the table's. */
  description?: string;
  default?: unknown;
  /** How the help shows the default when it is not the value itself. */
  defaultDescription?: string;
  mandatory?: boolean;
}

/** The table's option `name`, ready for `cmd.addOption(...)`. */
export function opt(name: OptionName, use: OptionUse = {}): Option {
  const spec: OptionSpec = OPTIONS[name];
  const o = new Option(spec.flags, use.description ?? spec.description);
  if (spec.parse) o.argParser(spec.parse as (value: string, previous: unknown) => unknown);
  if (use.default !== undefined) o.default(use.default, use.defaultDescription);
  if (use.mandatory) o.makeOptionMandatory();
  MADE.set(o, name);
  return o;
}

/** Where the processes run: the placement options with the testbed riding along, read back by placement/options.ts's placementRequest. */
export const PLACEMENT_OPTIONS = ['placement', 'clientCpus', 'sutCpus', 'testbed', 'scale'] as const satisfies readonly OptionName[];

/** Adds the placement options, as the table words them, to a command that runs tests (run, matrix, findings, reproduce). */
export function addPlacementOptions(cmd: Command): Command {
  for (const name of PLACEMENT_OPTIONS) cmd.addOption(opt(name));
  return cmd;
}

/** Which table entry an option was made from (undefined: the subcommand's own). */
export function meaningOf(o: Option): OptionName | undefined {
  return MADE.get(o);
}

/** The table entry whose long name is `long` (e.g. "--out"). */
export function tableEntryOf(long: string): OptionName | undefined {
  return (Object.keys(OPTIONS) as OptionName[]).find((k) => longOf(OPTIONS[k].flags) === long);
}

/** "--out" of "--out <dir>"; "--dashboard" of "--no-dashboard" is kept as "--no-dashboard". */
export function longOf(flags: string): string {
  return flags.split(/[ ,|]+/).find((f) => f.startsWith('--')) ?? flags;
}

/** A positional argument kept for scripts that still pass it: it works, and says what replaces it. */
export function deprecatedArgument(command: string, what: string, instead: string): void {
  process.stderr.write(`bench ${command}: ${what} is deprecated; use ${instead}\n`);
}
