/**
 * Launch and watch a benchmark run from the console (admins only, ops-admin.ts):
 *
 *   GET  /ops/launches                  the launches, newest first, the profiles and who holds the lock
 *   POST /ops/launches                  {plan, ...its options} (ops-launch-plans.ts) → 202 with the
 *                                       launch; 409 problem+json while another launch runs (one at a
 *                                       time) or for a preset other than this console's; 400 on a bad
 *                                       option; 422 for a plan a console served by a variant refuses
 *                                       (matrix, findings, faults: why, and the command to run it
 *                                       from a shell or the standalone console)
 *   GET  /ops/launches/<id>             one launch and its progress
 *   GET  /ops/launches/<id>/events      text/event-stream: its progress every second until it ends
 *   POST /ops/launches/<id>/cancel      stops the harness and k6, brings the variant down (unless it
 *                                       is the one serving this console) and marks every run folder
 *                                       the launch made INVALID
 *
 * The server starts `npm run bench -- <plan's args>` exactly as a shell user would
 * (ops-bench-cli.ts), told where to write (launchTarget), as a process group of its own so that a
 * cancel reaches k6 too; its stderr progress lines and the live k6 log of the run it is making
 * are what the page shows.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Request, Response } from 'express';
import { admitAdmin, type OpsAdminOptions } from './ops-admin';
import { benchEnv, shellCommand, type BenchCli } from './ops-bench-cli';
import { PidLock } from '@shellgrade/pid-lock';
import { livingGroupMembers } from './ops-process-group';
import type { LaunchEvent, LaunchList, LaunchRecord } from '@shellgrade/console-contract';
import { LaunchWatcher } from './ops-launch-progress';
import { LaunchRecords } from './ops-launch-record';
import { checkLaunch, planOffers, profileKinds, type CheckedLaunch } from './ops-launch-plans';
import type { PresetSummary } from './ops-results';
import { problem, sendProblem } from '@shellgrade/http';

export interface OpsLaunchOptions extends OpsAdminOptions {
  bench?: BenchCli;
  presets?: () => PresetSummary[];
  /** The variant this entry point belongs to: a cancel does not bring down the console's own variant. */
  ownVariant?: string;
}

export const CANCEL_FILE = 'cancelled.json';
/** The harness's exit code for a test that ran to its end and was judged INVALID (benchmarks/src/cli.ts). */
const HARNESS_INVALID_EXIT = 2;
const PROGRESS_PERIOD_MS = 1000;

/** Run folders are named as the harness names them: <UTC stamp>-<variant>-<profile>. */
export const launchRunId = (preset: string, profile: string, at = new Date()): string => `${stampOf(at)}-${preset}-${profile}`;

const stampOf = (at: Date): string => at.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
const RUN_FOLDER = /^\d{8}T\d{6}Z-/;

/**
 * A launch's id and where its harness is told to write: a run or suite into results/<id>
 * (--run-id), a findings run into results/findings/<id> (--out); a matrix and a faults run name
 * one folder per run themselves (the launch finds them by their stamps, runFoldersOf).
 */
export function launchTarget(r: CheckedLaunch, bench: BenchCli, at = new Date()): { id: string; results: string | null; args: string[] } {
  switch (r.plan) {
    case 'run':
    case 'suite': {
      const id = launchRunId(r.preset!, r.profile!, at);
      return { id, results: id, args: ['--run-id', id] };
    }
    case 'findings': {
      const id = launchRunId('findings', r.mode ?? 'full', at);
      return { id, results: `findings/${id}`, args: ['--out', relative(bench.cwd, join(bench.resultsDir, 'findings', id))] };
    }
    case 'matrix':
      return { id: launchRunId('matrix', r.profile!, at), results: null, args: [] };
    case 'faults':
      return { id: launchRunId('faults', r.preset!, at), results: null, args: [] };
  }
}

/** The run folders (results/<stamp>-...) made since the launch started, oldest first: one machine lock, so all of them are its own. */
export function runFoldersOf(resultsDir: string, r: Pick<LaunchRecord, 'id'>): string[] {
  const since = r.id.slice(0, 16);
  if (!existsSync(resultsDir)) return [];
  return readdirSync(resultsDir)
    .filter((f) => RUN_FOLDER.test(f) && f.slice(0, 16) >= since && isDir(join(resultsDir, f)))
    .sort();
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

interface Context {
  bench: BenchCli;
  records: LaunchRecords;
  /** One console launch at a time: held by the harness it started, which may outlive this server. */
  lock: PidLock;
}

function contextOf(bench: BenchCli): Context {
  const consoleDir = join(bench.cwd, 'run', 'console');
  return { bench, records: new LaunchRecords(consoleDir), lock: new PidLock('launch', consoleDir) };
}

/** The profiles the run plan may use (k6/profiles.json): not the suites (the suite plan's), nor the closed-model sweeps and mixes `bench run` refuses. */
export const runProfiles = (bench: BenchCli): string[] => profileKinds(bench).run;

const LAUNCH_PATH = /^\/ops\/launches(?:\/([A-Za-z0-9._-]+)(?:\/(events|cancel))?)?$/;

/** Whether the path is one of the launch surfaces. */
export const isLaunchPath = (path: string): boolean => LAUNCH_PATH.test(path);

export async function serveOpsLaunch(req: Request, res: Response, opts: OpsLaunchOptions): Promise<void> {
  if (!(await admitAdmin(req, res, opts))) return;
  res.setHeader('Cache-Control', 'no-store');
  if (!opts.bench) return sendProblem(res, problem(404, 'this entry point has no benchmark harness'));
  const ctx = contextOf(opts.bench);
  const [, id, action] = LAUNCH_PATH.exec(req.path)!;
  if (!id && req.method === 'GET') {
    const list: LaunchList = { launches: ctx.records.list(), profiles: runProfiles(opts.bench), plans: planOffers(opts.bench, opts.ownVariant), ownVariant: opts.ownVariant ?? null, busy: ctx.lock.holder()?.what ?? null };
    res.json(list);
    return;
  }
  if (!id && req.method === 'POST') return startLaunch(req, res, ctx, opts);
  const record = id ? ctx.records.get(id) : null;
  if (!record) return sendProblem(res, problem(404, 'no such launch'));
  if (!action && req.method === 'GET') {
    res.json({ launch: reconcile(ctx, record), progress: watcherOf(ctx, record).snapshot() });
    return;
  }
  if (action === 'events' && req.method === 'GET') return streamProgress(req, res, ctx, record);
  if (action === 'cancel' && req.method === 'POST') return cancelLaunch(req, res, ctx, record, opts);
  sendProblem(res, problem(405, `${req.method} is not allowed here`));
}

function startLaunch(req: Request, res: Response, ctx: Context, opts: OpsLaunchOptions): void {
  const presets = opts.presets?.().filter((p) => !p.error).map((p) => p.name) ?? [];
  const checked = checkLaunch(req.body, { bench: ctx.bench, presets, ownVariant: opts.ownVariant });
  if (!checked.ok) return sendProblem(res, problem(checked.status, checked.detail, checked.command ? { command: checked.command } : {}));
  const target = launchTarget(checked.request, ctx.bench);
  const id = target.id;
  const holder = ctx.lock.tryAcquire(id);
  if (holder) return sendProblem(res, problem(409, `another run is going on (${holder.what}): one run at a time on this machine; wait for it to end or cancel it`, { running: holder.what }));
  try {
    const record = spawnHarness(ctx, checked.request, target, [...checked.args, ...target.args]);
    res.status(202).json({ launch: record });
  } catch (error) {
    ctx.lock.releaseFor(id);
    sendProblem(res, problem(500, `the harness did not start: ${(error as Error).message}`));
  }
}

function spawnHarness(ctx: Context, request: CheckedLaunch, target: { id: string; results: string | null }, args: string[]): LaunchRecord {
  const id = target.id;
  const log = ctx.records.logFile(id);
  mkdirSync(ctx.records.dir, { recursive: true });
  const fd = openSync(log, 'a');
  // A process group of its own (detached): a cancel signals the harness and k6 together.
  const child = spawn(ctx.bench.node, [ctx.bench.script, ...args], { cwd: ctx.bench.cwd, env: benchEnv(ctx.bench), detached: true, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  if (!child.pid) throw new Error(`${ctx.bench.node} could not be started`);
  const record: LaunchRecord = {
    id,
    plan: request.plan,
    preset: request.preset ?? null,
    profile: request.profile ?? null,
    results: target.results,
    args,
    command: shellCommand(args),
    pid: child.pid,
    log,
    startedAt: new Date().toISOString(),
    endedAt: null,
    exitCode: null,
    state: 'running',
    cancelled: null,
  };
  ctx.records.put(record);
  ctx.lock.handOver(child.pid);
  child.on('exit', (code, signal) => {
    const now = ctx.records.get(id);
    // bench run exits 0 when every run is VALID, 2 when the test ended with an INVALID verdict (still a finished test), 1 on an error.
    const state = now?.cancelled ? 'cancelled' : code === 0 || code === HARNESS_INVALID_EXIT ? 'finished' : 'failed';
    ctx.records.update(id, { endedAt: new Date().toISOString(), exitCode: code ?? (signal ? 128 : null), state });
    ctx.lock.releaseFor(id);
  });
  child.unref();
  return record;
}

/** A launch whose harness died while no server watched it (a restarted entry point) is ended here. */
function reconcile(ctx: Context, r: LaunchRecord): LaunchRecord {
  if (r.state !== 'running' || (r.pid !== null && alive(r.pid))) return r;
  return ctx.records.update(r.id, { state: r.cancelled ? 'cancelled' : 'failed', endedAt: r.endedAt ?? new Date().toISOString() }) ?? r;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function watcherOf(ctx: Context, r: LaunchRecord): LaunchFollower {
  return new LaunchFollower(ctx.bench.resultsDir, r);
}

/**
 * The progress of a launch: of its own run folder (run, suite), or of the run its harness is
 * making now (matrix, findings, faults: the newest run folder since it started) — a fresh watcher
 * each time the harness moves on to the next run.
 */
class LaunchFollower {
  private dir: string | null = null;
  private watcher: LaunchWatcher | null = null;
  constructor(
    private readonly resultsDir: string,
    private readonly r: LaunchRecord,
  ) {}

  snapshot(): ReturnType<LaunchWatcher['snapshot']> {
    const own = this.r.plan === 'run' || this.r.plan === 'suite';
    const dir = join(this.resultsDir, own ? this.r.id : (runFoldersOf(this.resultsDir, this.r).pop() ?? this.r.id));
    if (dir !== this.dir || !this.watcher) {
      this.dir = dir;
      this.watcher = new LaunchWatcher(dir, this.r.log);
    }
    return this.watcher.snapshot();
  }
}

/** Server-sent events: one `progress` event per second, an `end` event once the launch has ended. */
function streamProgress(req: Request, res: Response, ctx: Context, record: LaunchRecord): void {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  const watcher = watcherOf(ctx, record);
  const send = (): boolean => {
    const launch = reconcile(ctx, ctx.records.get(record.id) ?? record);
    const ended = launch.state !== 'running';
    const elapsedS = ((ended && launch.endedAt ? Date.parse(launch.endedAt) : Date.now()) - Date.parse(launch.startedAt)) / 1000;
    const event: LaunchEvent = { launch, elapsedS, progress: watcher.snapshot() };
    res.write(`event: ${ended ? 'end' : 'progress'}\ndata: ${JSON.stringify(event)}\n\n`);
    return ended;
  };
  if (send()) return void res.end();
  const timer = setInterval(() => {
    if (send()) {
      clearInterval(timer);
      res.end();
    }
  }, PROGRESS_PERIOD_MS);
  req.on('close', () => clearInterval(timer));
}

async function cancelLaunch(req: Request, res: Response, ctx: Context, record: LaunchRecord, opts: OpsLaunchOptions): Promise<void> {
  if (record.state !== 'running' || record.pid === null) return sendProblem(res, problem(409, `the launch has already ended (${record.state})`));
  const cancelled = { at: new Date().toISOString(), by: 'admin', from: req.ip ?? req.socket.remoteAddress ?? 'unknown' };
  ctx.records.update(record.id, { cancelled });
  await stopGroup(record.pid);
  // The variant down, as the shell user's Ctrl-C and `npm run variant -- down` would — unless this console runs on it.
  const down = record.preset !== opts.ownVariant;
  if (down) await runLauncher(ctx.bench, ['down']);
  for (const folder of foldersOf(ctx.bench.resultsDir, record)) markInvalid(join(ctx.bench.resultsDir, folder), record, cancelled, down);
  res.json({ launch: ctx.records.update(record.id, { state: 'cancelled', endedAt: new Date().toISOString() }) });
}

/** SIGTERM to the harness's process group (k6 included), SIGKILL after 10 s to whatever still lives in it. */
async function stopGroup(pgid: number): Promise<void> {
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-pgid, s);
    } catch {
      // the group is gone
    }
  };
  signal('SIGTERM');
  for (let waited = 0; waited < 10_000 && livingGroupMembers(pgid).length > 0; waited += 200) await new Promise((r) => setTimeout(r, 200));
  if (livingGroupMembers(pgid).length > 0) signal('SIGKILL');
}

function runLauncher(bench: BenchCli, args: string[]): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(bench.node, [join(bench.script, '../../../infra/src/launcher/cli.js'), ...args], { cwd: bench.cwd, env: benchEnv(bench), stdio: 'ignore' });
    child.on('exit', () => resolve());
    child.on('error', () => resolve());
  });
}

/**
 * The folders a cancel marks: the launch's own (run, suite, findings) and each run folder its
 * harness left unfinished (no aggregated.json); the runs of a matrix or a findings run that had
 * ended before the cancel stand as they were judged.
 */
function foldersOf(resultsDir: string, r: LaunchRecord): string[] {
  if (r.plan === 'run' || r.plan === 'suite') return [r.id];
  const own = r.results === null ? [] : [r.results];
  return [...own, ...runFoldersOf(resultsDir, r).filter((f) => !existsSync(join(resultsDir, f, 'aggregated.json')))];
}

/** The folder says it was cancelled, by whom and when: INVALID whatever it holds (ops-results lists it so). */
function markInvalid(dir: string, r: LaunchRecord, cancelled: NonNullable<LaunchRecord['cancelled']>, variantDown: boolean): void {
  mkdirSync(dir, { recursive: true });
  const reason = `cancelled from the console by an ${cancelled.by} (${cancelled.from}) at ${cancelled.at}`;
  writeFileSync(join(dir, CANCEL_FILE), JSON.stringify({ valid: false, reasons: [reason], command: r.command, cancelled, variantBroughtDown: variantDown, runFilesPresent: existsSync(join(dir, 'run-1.json')) }, null, 2));
}
