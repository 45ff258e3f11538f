// One k6 process of a test: its command line, its run, and what the runner reads back from it
// (the summary's paper metrics, the SPS sample lines, its load-start marker, client-side errors).
import { createReadStream, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { k6OptionsArgs, writeK6Options, type SpsK6Options } from './k6-options';
import { defaultArchive, spsScript } from './paths';
import { writeProductionData } from './production-data';
import { startInherited, waitExit } from './shell';
import type { IterationSample, RequestSample } from './suites/samples';
import type { ScheduledStep } from './suites/step-stats';
import type { PaperMetrics } from './types';

export interface K6Invocation {
  k6: string;
  /** The options file k6 reads (k6-options-<tag>.json in the run folder: it documents the run). */
  optionsFile: string;
  options: SpsK6Options;
  /** Environment of the k6 process itself (web dashboard export). */
  processEnv: Record<string, string>;
  args: string[];
  dashboard: string | null;
}

/** What a test sets beyond the profile: overrides, switches, the variant's reply. */
export type SpsOverrides = Partial<Omit<SpsK6Options, 'schema' | 'script' | 'profile' | 'baseUrl' | 'usersCsv' | 'summaryJson' | 'summaryTxt' | 'reply'>> & Pick<SpsK6Options, 'reply'>;

export interface K6InvocationRequest {
  k6: string;
  /** The run folder: options, summary, log and samples of this k6 process go there. */
  dir: string;
  /** Names its files: k6-<tag>.json, k6-<tag>.log, k6-options-<tag>.json. */
  tag: string;
  entry: string;
  usersCsv: string;
  profile: string;
  overrides: SpsOverrides;
  /** Every k6 sample kept (--out json=raw-<tag>.json.gz). */
  raw?: boolean;
  /** k6's web dashboard HTML export. */
  dashboard?: boolean;
}

/**
 * The k6 process of one run: its options file written (validated) into the run folder, and its
 * command line, which hands k6 only that file's path. LOG_REQUESTS=on in the runner's own
 * environment turns the per-request lines on (benchmarks/README.md, "Request lines").
 */
export function k6Invocation(req: K6InvocationRequest): K6Invocation {
  const { dir, tag } = req;
  const optionsFile = join(dir, `k6-options-${tag}.json`);
  const options = writeK6Options<SpsK6Options>(optionsFile, {
    script: 'sps',
    profile: req.profile,
    baseUrl: req.entry,
    usersCsv: req.usersCsv,
    archive: defaultArchive(),
    // Read by each VU with open(): far cheaper for k6 than building or decoding it per VU.
    productionData: writeProductionData(dir, defaultArchive()),
    summaryJson: join(dir, `k6-${tag}.json`),
    summaryTxt: join(dir, `k6-${tag}.txt`),
    logSps: true,
    logRequests: process.env.LOG_REQUESTS === 'on',
    ...req.overrides,
  });
  const args = ['run', '--log-output', `file=${join(dir, `k6-${tag}.log`)}`, '--log-format', 'json'];
  if (req.raw) args.push('--out', `json=${join(dir, `raw-${tag}.json.gz`)}`);
  args.push(...k6OptionsArgs(optionsFile), spsScript());
  const file = req.dashboard ? join(dir, `k6-dashboard-${tag}.html`) : null;
  // k6's own HTML report of the run; port -1: no web server, only the export at the end. A 2 s
  // period: with the default 10 s, k6 skips the report of a short (smoke) run as "not enough data".
  const dashboardEnv: Record<string, string> = file ? { K6_WEB_DASHBOARD: 'true', K6_WEB_DASHBOARD_PORT: '-1', K6_WEB_DASHBOARD_PERIOD: '2s', K6_WEB_DASHBOARD_EXPORT: file } : {};
  const processEnv = { ...k6GoRuntime(process.env), ...dashboardEnv };
  return { k6: req.k6, optionsFile, options, processEnv, args, dashboard: file };
}

/**
 * Go's collector for k6, unless the environment sets it: k6 shares the machine with the system it
 * measures, so its CPU is what bounds an overload test here. GOGC 400 (a collection when the heap
 * has grown 4× since the last, not 2×) took k6's CPU per iteration from 24.2–26.9 to 23.0–23.5 ms
 * (naked-mon-zygote, small at 12 it/s, 3 runs against 2, 2026-12-02): fewer collections, a larger heap between them.
 */
const k6GoRuntime = (env: NodeJS.ProcessEnv): Record<string, string> => (env.GOGC ? {} : { GOGC: '400' });

export async function runK6(inv: K6Invocation, onStart: (pid: number) => void): Promise<number> {
  const child = startInherited(inv.k6, inv.args, inv.processEnv);
  if (child.pid) onStart(child.pid);
  return waitExit(child);
}

export function readPaper(file: string): PaperMetrics {
  if (!existsSync(file)) throw new Error(`k6 wrote no summary at ${file}`);
  return (JSON.parse(readFileSync(file, 'utf8')) as { paper: PaperMetrics }).paper;
}

/** The step schedule k6 ran (a suite profile: k6/lib/steps.js), from its summary's config. */
export function readSchedule(file: string): ScheduledStep[] | null {
  if (!existsSync(file)) return null;
  return (JSON.parse(readFileSync(file, 'utf8')) as { config?: { schedule?: ScheduledStep[] } }).config?.schedule ?? null;
}

/** The per-request and per-iteration lines of a run logged with logRequests on (the suites). */
export async function readRequestLines(logFile: string): Promise<{ requests: RequestSample[]; iterations: IterationSample[] }> {
  const requests: RequestSample[] = [];
  const iterations: IterationSample[] = [];
  // One pass over the log (a soak's runs to tens of MB): both markers at once.
  for await (const line of markedLines(logFile, 'req', 'it')) {
    if (line.sg === 'req') requests.push(line as unknown as RequestSample);
    else iterations.push(line as unknown as IterationSample);
  }
  return { requests, iterations };
}

/** The `msg` objects of k6 log lines carrying `{"sg":"<marker>"}` for one of `markers` (console.log of the script). */
async function* markedLines(logFile: string, ...markers: string[]): AsyncGenerator<Record<string, unknown>> {
  if (!existsSync(logFile)) return;
  const quoted = markers.map((m) => `\\"sg\\":\\"${m}\\"`);
  const rl = createInterface({ input: createReadStream(logFile) });
  for await (const line of rl) {
    if (!quoted.some((q) => line.includes(q))) continue;
    try {
      const msg = JSON.parse((JSON.parse(line) as { msg: string }).msg) as Record<string, unknown>;
      if (markers.includes(msg.sg as string)) yield msg;
    } catch {
      /* a k6 warning that merely quotes the marker */
    }
  }
}

export interface SpsSample {
  trace_id: string;
  start_ms: number;
  duration_ms: number;
  status: number;
  outcome: string;
  ep_id?: number | null;
}

/** Keeps the SPS sample lines (trace id, start, client duration, ep_id) for traces/ and the audit. */
export async function extractSpsSamples(logFile: string, outFile: string): Promise<SpsSample[]> {
  const samples: SpsSample[] = [];
  for await (const s of markedLines(logFile, 'sps')) samples.push(s as unknown as SpsSample);
  writeFileSync(outFile, samples.length ? samples.map((s) => JSON.stringify(s)).join('\n') + '\n' : '');
  return samples;
}

/** When k6 began sending load: the `{"sg":"start"}` line its setup() logs (0 if absent). */
export async function loadStartMs(logFile: string): Promise<number> {
  for await (const s of markedLines(logFile, 'start')) if (typeof s.start_ms === 'number') return s.start_ms;
  return 0;
}

// Local exhaustion on the client's side: its failures are not the system's.
const CLIENT_RESOURCE_ERRORS = /too many open files|cannot assign requested address|no buffer space available/i;

/** k6 log lines reporting local resource exhaustion (the script's own exceptions are counted by k6). */
export function clientResourceErrors(logFile: string): number {
  if (!existsSync(logFile)) return 0;
  return readFileSync(logFile, 'utf8').split('\n').filter((l) => CLIENT_RESOURCE_ERRORS.test(l)).length;
}
