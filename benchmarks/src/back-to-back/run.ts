// `bench back-to-back <commit>`: the same measurements of a reference commit (its own harness, in
// a git worktree prepared once per host) and of this tree, interleaved config by config on one
// host so its drift falls on both sides alike. Hosts of this kind differ up to 2x in speed: only
// the ratios of one comparison count. Steps (plan.ts has their commands):
//   grader     CPU ms per grading (bench grader cpu, zygote and async), five rounds, each a pair of the
//              two sides one right after the other (which goes first alternates): the ratio's interval over the pairs
//   small      bench run --profile small, one run a side per round (three rounds, paired as the
//              grader's), of each preset at kdf cost 1 and its own: CPU per iteration per process group
//   calibrate  each preset's sustainable rate at both costs under the original's client (profile
//              original: one step per probe, 0 KO and SPS p95 <= 2 s), stepped then bisected here
//              for both sides alike; the reference gets this tree's k6 client when it lacks it
//   overload   this tree's first preset at 2x its sustainable rate (its own hash), profile students
// The machine must be quiet: each side's commands hold the harness lock; nothing else may run.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { bisectSustainable, measuredValid, originalStepOf } from '../calibrate';
import { cpuSplitOfRuns, readRunRecords } from '../cpu-split';
import { opt, positiveInt } from '../options';
import { repoRoot, resultStamp } from '../paths';
import type { Aggregated } from '../types';
import {
  b2bRunId, CPU_SCRIPT_COMMIT, DEFAULT_PEAKS, GRADER_MODES, GRADER_ROUNDS, SMALL_ROUNDS, graderCommand, pairOrder, parseGraderModes, overloadArgs, parseCommit, parseCosts, parsePeaks, parsePresets, parseSteps, probeArgs, smallArgs,
  type BackToBackOptions, type Cost, type Side,
} from './plan';
import { cellOf, emptySummary, parseGraderOutput, summaryMarkdown, type BackToBackSummary, type CalibrationResult, type ProbeResult } from './report';

interface Session {
  o: BackToBackOptions;
  here: string;
  summary: BackToBackSummary;
  /** The side whose servers and variant may be up. */
  upSide: Side | null;
  /** The reference has the original's client and `--warm-up never` of its own (not ported). */
  refKnowsNever: boolean;
}

function log(s: Session, message: string): void {
  const line = `[back-to-back ${new Date().toISOString().slice(11, 19)}] ${message}`;
  appendFileSync(join(s.o.out, 'log.txt'), line + '\n');
  process.stderr.write(line + '\n');
}

function git(args: string[], cwd: string): { ok: boolean; out: string } {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  return { ok: r.status === 0, out: (r.stdout ?? '').trim() };
}

const sideDir = (s: Session, side: Side): string => (side === 'ref' ? s.o.refDir : s.here);

/** Where a side's bench writes its run folders (SG_RESULTS_DIR, inherited, sends both to one place). */
function resultsOf(s: Session, side: Side): string {
  return process.env.SG_RESULTS_DIR ? resolve(process.env.SG_RESULTS_DIR) : join(sideDir(s, side), 'results');
}

/** A command in a side's tree, its output appended to <out>/<log>; resolves to its exit code and output. */
function exec(s: Session, side: Side, cmd: string[], logName: string): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    const child = spawn(cmd[0], cmd.slice(1), { cwd: sideDir(s, side), stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: string[] = [];
    const keep = (b: Buffer) => {
      chunks.push(b.toString());
      appendFileSync(join(s.o.out, logName), b);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (err) => done({ code: 127, output: String(err) }));
    child.on('close', (code) => done({ code: code ?? 1, output: chunks.join('') }));
  });
}

/** Either side's variant and servers down (they share ports). */
async function quietDown(s: Session, side: Side): Promise<void> {
  await exec(s, side, ['npm', 'run', '--silent', 'variant', '--', 'down'], 'quiet-down.log');
  await exec(s, side, ['bash', 'infra/bin/servers', 'down'], 'quiet-down.log');
}

/** The other side down before this one starts its own (a calibration's probes keep theirs up). */
async function switchTo(s: Session, side: Side, fresh = false): Promise<void> {
  if (s.upSide !== side || fresh) {
    await quietDown(s, 'new');
    await quietDown(s, 'ref');
  }
  s.upSide = side;
}

async function bench(s: Session, side: Side, args: string[]): Promise<number> {
  log(s, `${side}: npm run bench -- ${args.join(' ')}`);
  appendFileSync(join(s.o.out, 'commands.txt'), `${side} ${args.join(' ')}\n`);
  const r = await exec(s, side, ['npm', 'run', '--silent', 'bench', '--', ...args], `${side}.log`);
  if (r.code !== 0) log(s, `${side}: exited ${r.code} (see ${side}.log)`);
  return r.code;
}

function readAggregated(s: Session, side: Side, runId: string): Aggregated | null {
  const file = join(resultsOf(s, side), runId, 'aggregated.json');
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Aggregated;
  } catch {
    return null;
  }
}

function save(s: Session): void {
  writeFileSync(join(s.o.out, 'back-to-back.json'), JSON.stringify(s.summary, null, 2) + '\n');
}

/** The reference's worktree, dependencies, build and catalog (its own setup script), once per host. */
async function prepareRef(s: Session): Promise<void> {
  const dir = s.o.refDir;
  if (!existsSync(join(dir, '.b2b-ready'))) {
    log(s, `preparing the reference ${s.o.ref} in ${dir}`);
    mkdirSync(dirname(dir), { recursive: true });
    if (!git(['worktree', 'add', '--detach', dir, s.o.ref], s.here).ok && !git(['-C', dir, 'checkout', '--detach', s.o.ref], s.here).ok) {
      throw new Error(`could not make a worktree of ${s.o.ref} in ${dir}`);
    }
    const setup = await exec(s, 'ref', ['bash', 'scripts/setup.sh'], 'ref-setup.log');
    if (setup.code !== 0) throw new Error(`the reference's setup failed (exit ${setup.code}): see ${join(s.o.out, 'ref-setup.log')}`);
    writeFileSync(join(dir, '.b2b-ready'), '');
  }
  s.summary.commits = { ref: git(['rev-parse', 'HEAD'], dir).out, new: git(['rev-parse', 'HEAD'], s.here).out };
  writeFileSync(join(s.o.out, 'ref-commit.txt'), s.summary.commits.ref + '\n');
  writeFileSync(join(s.o.out, 'new-commit.txt'), s.summary.commits.new + '\n');
}

/**
 * The original's client in the reference: its k6 scripts are this tree's when it predates them
 * (k6/ and benchmarks/sps.js read the same options file; the profile `original` carries the
 * rest). Copied again at every run: an earlier port may predate a change of this tree's copy.
 */
function portClient(s: Session): void {
  if (git(['cat-file', '-e', 'HEAD:k6/lib/scenario-original.js'], s.o.refDir).ok) {
    s.refKnowsNever = true;
    return;
  }
  const files = ['benchmarks/sps.js', 'k6/profiles.json', ...readdirSync(join(s.here, 'k6', 'lib')).filter((f) => f.endsWith('.js')).map((f) => `k6/lib/${f}`)];
  for (const f of files) copyFileSync(join(s.here, f), join(s.o.refDir, f));
  s.summary.notes.push(`the reference predates the original's client: it ran this tree's k6 client (${files.length} files ported); its harness has no --warm-up never, so it warmed up before its first probe of each calibration, and this tree did too`);
}

/** The reference's harness has `bench grader cpu` (else it measures with the script before it). */
const refHasGraderCpu = (s: Session): boolean => git(['cat-file', '-e', 'HEAD:benchmarks/src/grader/cpu-per-grading.ts'], s.o.refDir).ok;

/**
 * CPU per grading in the reference too: a reference that predates cpu-per-grading.ts gets the
 * script of CPU_SCRIPT_COMMIT compiled against its grader (its baseline loop then lived in
 * libs/admin-cli). Ported again at every run.
 */
function portCpuTool(s: Session): void {
  if (refHasGraderCpu(s) || git(['cat-file', '-e', 'HEAD:benchmarks/grader-baseline/cpu-per-grading.ts'], s.o.refDir).ok) return;
  const src = (f: string) => {
    const r = spawnSync('git', ['show', `${CPU_SCRIPT_COMMIT}:${f}`], { cwd: s.here, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`the reference predates the grader CPU script and ${CPU_SCRIPT_COMMIT}:${f} cannot be read here (a shallow clone?): ${r.stderr.trim()}`);
    return r.stdout;
  };
  const to = (f: string) => join(s.o.refDir, f);
  writeFileSync(to('benchmarks/grader-baseline/cpu-per-grading.ts'), src('benchmarks/grader-baseline/cpu-per-grading.ts').replaceAll("from './grader-baseline-runner'", "from '../../libs/admin-cli/src/grader-baseline-runner'"));
  writeFileSync(
    to('benchmarks/grader-baseline/tsconfig.cpu.json'),
    JSON.stringify({
      extends: '../../tsconfig.build.json',
      compilerOptions: { outDir: '../../run/grader-cpu/dist', rootDir: '../..' },
      include: ['../../libs/grading/src/**/*.ts', '../../libs/domain/src/**/*.ts', '../../libs/variant/src/**/*.ts', '../../libs/admin-cli/src/grader-baseline-runner.ts', 'cpu-per-grading.ts', '../src/machine-speed.ts'],
    }, null, 2) + '\n',
  );
  writeFileSync(to('benchmarks/grader-baseline/cpu.sh'), src('benchmarks/grader-baseline/cpu.sh').replaceAll('benchmarks/grader-baseline/tsconfig.json', 'benchmarks/grader-baseline/tsconfig.cpu.json').replaceAll('run/grader-baseline/dist/', 'run/grader-cpu/dist/'));
}

async function stepGrader(s: Session): Promise<void> {
  portCpuTool(s);
  for (let round = 1; round <= s.o.graderRounds; round++) {
    for (const side of pairOrder(round)) {
      await switchTo(s, side, true);
      log(s, `${side}: grader CPU, round ${round}`);
      const command = graderCommand(side === 'new' || refHasGraderCpu(s), s.o.graderModes);
      const r = await exec(s, side, command, `${side}.log`);
      const parsed = parseGraderOutput(r.output, side, round);
      if (r.code !== 0 || parsed.lines.length === 0) s.summary.notes.push(`${side} grader round ${round}: ${command.join(' ')} exited ${r.code} with ${parsed.lines.length} figures (see ${side}.log)`);
      s.summary.grader.push(...parsed.lines);
      s.summary.speedProbes.push(...parsed.probes);
      appendFileSync(join(s.o.out, 'grader-cpu.txt'), [...parsed.lines.map((l) => `${side} round ${round}: ${l.mode}: ${l.cpuMsPerGrading} CPU ms per grading`), ...parsed.probes].join('\n') + '\n');
      save(s);
    }
  }
}

async function stepSmall(s: Session): Promise<void> {
  for (const preset of s.o.presets) {
    for (const cost of s.o.costs) {
      for (let round = 1; round <= s.o.smallRounds; round++) {
        for (const side of pairOrder(round)) {
          await switchTo(s, side, true);
          const runId = b2bRunId(resultStamp(), side, preset, cost);
          await bench(s, side, smallArgs(side, preset, cost, runId));
          const a = readAggregated(s, side, runId);
          const runs = readRunRecords(join(resultsOf(s, side), runId));
          cellOf(s.summary, preset, cost).small.push({ side, round, runId, valid: a?.valid ?? false, split: cpuSplitOfRuns(runs, a?.meta ?? null) });
          save(s);
        }
      }
    }
  }
}

/** One side's sustainable rate for a preset and cost under the original's client: steps, then bisection, every probe judged here. */
async function calibrateSide(s: Session, side: Side, preset: string, cost: Cost): Promise<CalibrationResult> {
  const probes: ProbeResult[] = [];
  const measure = async (peak: number): Promise<ProbeResult> => {
    const runId = b2bRunId(resultStamp(), side, preset, cost, `original-p${peak}`);
    await bench(s, side, probeArgs(side, preset, cost, peak, runId, s.refKnowsNever));
    const a = readAggregated(s, side, runId);
    if (!a) return { peak, runId, valid: false, sustained: false, ko: null, spsP95Ms: null, failures: 'no result (see the side log)' };
    const st = originalStepOf(peak, a);
    const failures = [...Object.entries(st.koByType ?? {}).map(([t, n]) => `${n} KO on ${t}`), ...(st.spsP95Ms !== null && st.spsP95Ms > 2000 ? [`SPS p95 ${(st.spsP95Ms / 1000).toFixed(1)} s`] : [])].join(', ');
    return { peak, runId, valid: st.valid, sustained: st.sustained, ko: st.ko ?? null, spsP95Ms: st.spsP95Ms, failures };
  };
  const probe = async (peak: number): Promise<boolean> => {
    const { step, setAside } = await measuredValid(() => measure(peak));
    probes.push(...setAside, step);
    log(s, `${side} ${preset} ${cost === 1 ? 'kdf1' : 'own hash'}: ${peak}/s ${step.sustained ? 'sustained' : `fails (${step.failures || (step.valid ? 'over the SLO' : 'INVALID')})`}`);
    return step.sustained;
  };
  await switchTo(s, side, true);
  let last = 0;
  let failed: number | null = null;
  for (const peak of s.o.peaks[side][`${cost}`]) {
    if (await probe(peak)) last = peak;
    else {
      failed = peak;
      break;
    }
  }
  let sustainable: number | null = last || null;
  if (failed !== null) {
    const b = await bisectSustainable(last, failed, probe);
    sustainable = b.sustained || null;
    failed = b.failed;
  }
  return { sustainableRate: sustainable, firstFailedRate: failed, probes };
}

async function stepCalibrate(s: Session): Promise<void> {
  portClient(s);
  for (const preset of s.o.presets) {
    for (const cost of s.o.costs) {
      for (const side of ['ref', 'new'] as Side[]) {
        cellOf(s.summary, preset, cost).calibration[side] = await calibrateSide(s, side, preset, cost);
        save(s);
      }
    }
  }
}

async function stepOverload(s: Session): Promise<void> {
  const first = s.o.presets[0];
  const rate = s.summary.cells.find((c) => c.preset === first && c.cost === 'default')?.calibration.new?.sustainableRate;
  if (!rate) {
    log(s, `overload: no sustainable rate of ${first} (its own hash) measured by this comparison's calibrate step`);
    s.summary.notes.push(`overload skipped: no sustainable rate of ${first} at its own hash (run the calibrate step)`);
    return;
  }
  await switchTo(s, 'new', true);
  const runId = b2bRunId(resultStamp(), 'new', first, 'default', 'overload');
  log(s, `overload: ${first} at 2 x ${rate} it/s`);
  await bench(s, 'new', overloadArgs(first, rate, runId));
  s.summary.overload = { preset: first, rate, runId };
}

const STEP_RUNNERS = { grader: stepGrader, small: stepSmall, calibrate: stepCalibrate, overload: stepOverload };

export async function backToBack(o: BackToBackOptions): Promise<BackToBackSummary> {
  mkdirSync(o.out, { recursive: true });
  const s: Session = { o: { ...o, out: resolve(o.out) }, here: repoRoot(), summary: emptySummary({ ref: o.ref, new: 'HEAD' }, new Date().toISOString()), upSide: null, refKnowsNever: false };
  await prepareRef(s);
  log(s, `steps ${o.steps.join(',')}, presets ${o.presets.join(',')}, reference ${s.summary.commits.ref}, this tree ${s.summary.commits.new}`);
  try {
    for (const step of o.steps) await STEP_RUNNERS[step](s);
  } finally {
    await quietDown(s, 'new');
    await quietDown(s, 'ref');
    s.summary.endedAt = new Date().toISOString();
    save(s);
    writeFileSync(join(s.o.out, 'summary.md'), summaryMarkdown(s.summary));
  }
  log(s, `done: ${s.o.out} (summary.md, back-to-back.json; commands.txt lists each command; each side's run folders are under its results/)`);
  return s.summary;
}

/** `bench back-to-back <commit>` on the front door (benchmarks/src/cli.ts). */
export function registerBackToBackCommand(program: Command): void {
  program
    .command('back-to-back')
    .description("this tree against a reference commit on one host, interleaved: CPU per iteration per process group and the sustainable rate under the original's client, per preset and hash cost, new / reference -> results/back-to-back/<stamp>/summary.md")
    .argument('<commit>', 'the reference commit (a worktree of it is prepared once per host)', parseCommit)
    .option('--steps <list>', 'grader,small,calibrate,overload (any of them, in this order)', parseSteps, parseSteps('grader,small,calibrate,overload'))
    .option('--presets <list>', 'presets, comma-separated (the first one is the overload step\'s)', parsePresets, parsePresets('naked-mon-zygote,msa-zygote-1-2'))
    .option('--costs <list>', 'hash costs the small and calibrate steps measure: kdf1, own (the preset\'s own hash) or both', parseCosts, parseCosts('kdf1,own'))
    .addOption(opt('out', { description: 'output folder (default results/back-to-back/<stamp>)' }))
    .option('--ref-dir <dir>', "the reference's worktree (default $SG_B2B_REF_DIR, else ~/.cache/shellgrade/back-to-back/<commit>)")
    .option('--ref-peaks <kdf1>/<own>', 'the reference\'s calibration steps, e.g. 4,8,16/2,4,8 (default: measured bounds of this host kind)')
    .option('--new-peaks <kdf1>/<own>', "this tree's calibration steps, e.g. 8,16,32/4,8,16")
    .option('--grader-rounds <n>', 'rounds of the grader step, each a pair (one side right after the other)', positiveInt, GRADER_ROUNDS)
    .option('--grader-modes <list>', 'exec modes the grader step measures', parseGraderModes, GRADER_MODES)
    .option('--small-rounds <n>', 'rounds of the small step, each a pair of one small run a side', positiveInt, SMALL_ROUNDS)
    .action(async (commit: string, f: { steps: BackToBackOptions['steps']; presets: string[]; costs: BackToBackOptions['costs']; out?: string; refDir?: string; refPeaks?: string; newPeaks?: string; graderRounds: number; graderModes: string[]; smallRounds: number }) => {
      const peaksOf = (v: string | undefined, side: Side) => {
        if (!v) return DEFAULT_PEAKS[side];
        const [one, own] = v.split('/');
        if (own === undefined) throw new Error(`--${side}-peaks takes <kdf1 peaks>/<own hash peaks>, got ${JSON.stringify(v)}`);
        return { '1': parsePeaks(one), default: parsePeaks(own) };
      };
      const summary = await backToBack({
        ref: commit,
        steps: f.steps,
        presets: f.presets,
        costs: f.costs,
        out: f.out ?? join(process.env.SG_RESULTS_DIR ?? join(repoRoot(), 'results'), 'back-to-back', resultStamp()),
        refDir: f.refDir ?? process.env.SG_B2B_REF_DIR ?? join(homedir(), '.cache', 'shellgrade', 'back-to-back', commit),
        peaks: { ref: peaksOf(f.refPeaks, 'ref'), new: peaksOf(f.newPeaks, 'new') },
        graderRounds: f.graderRounds,
        graderModes: f.graderModes,
        smallRounds: f.smallRounds,
      });
      process.stdout.write(summaryMarkdown(summary) + '\n');
    });
}
