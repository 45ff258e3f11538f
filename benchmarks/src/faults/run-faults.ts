// `bench faults`: per fault, one run of scenario R at a steady rate (the existing runner,
// run-test.ts) with the fault applied in a fixed window of it — steady, fault, recovery — then
// the run judged around the window (analyse.ts) and written with the others (report.ts).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRequestLines } from '../k6-run';
import { phase } from '../log';
import { resultStamp, resultsDir, runDir } from '../paths';
import { runTest } from '../run-test';
import { sleep } from '../shell';
import { variantDown, variantStatus, variantUp } from '../stack';
import { calibratedSaturation } from '../suites/resolve';
import type { RunRecord } from '../types';
import { analyseFaultRun, type FaultResult, type FaultWindowsS } from './analyse';
import type { AttributionVerdict } from './attribution';
import { FaultNotApplicable, faultKind, planFault } from './catalog';
import { applyFault, type AppliedFault } from './guard';
import { replayLeftJournals, UndoJournal } from './journal';
import { writeFaultsReport } from './report';
import { asHop, checkHop, routeHop, type RoutedHop } from './route';
import { judgeLatencyRun } from './judge-latency';
import { exclusive } from '../harness-lock';

export interface FaultsOptions extends FaultWindowsS {
  variant: string;
  faults: string[];
  /** Iterations/s; else share × the sustainable rate (--saturation or the variant's newest calibration). */
  rate?: number;
  share: number;
  saturation?: number;
  profile: string;
  rampS: number;
  drainTimeoutS?: number;
}

/** Load keeps running past the recovery window by this much: the inject and the undo take time of their own. */
const SLACK_S = 10;

export function faultRate(o: Pick<FaultsOptions, 'rate' | 'share' | 'saturation' | 'variant'>, calibrated = calibratedSaturation(resultsDir(), o.variant)): { rate: number; source: string } {
  if (o.rate !== undefined) return { rate: Math.max(1, Math.round(o.rate)), source: '--rate' };
  const saturation = o.saturation ?? calibrated?.rate;
  if (saturation === undefined) throw new Error(`no sustainable rate for ${o.variant}: give --rate, --saturation, or run bench calibrate first`);
  return { rate: Math.max(1, Math.round(o.share * saturation)), source: `${Math.round(o.share * 100)} % of ${saturation} it/s (${o.saturation !== undefined ? '--saturation' : calibrated!.file})` };
}

export function runFaults(o: FaultsOptions): Promise<{ dir: string; results: FaultResult[]; skipped: string[] }> {
  return exclusive(`bench faults ${o.variant}`, () => runFaultsNow(o));
}

async function runFaultsNow(o: FaultsOptions): Promise<{ dir: string; results: FaultResult[]; skipped: string[] }> {
  for (const r of replayLeftJournals(resultsDir(), phase)) if (r.error) throw new Error(`an undo left by an earlier run failed: ${r.error}`);
  for (const f of o.faults) faultKind(f);
  const { rate, source } = faultRate(o);
  const stamp = resultStamp();
  const dir = runDir(`${stamp}-${o.variant}-faults`);
  mkdirSync(dir, { recursive: true });
  phase(`faults on ${o.variant} at ${rate} it/s (${source}): ${o.faults.join(', ')}; windows ${o.steadyS} s steady, ${o.faultS} s fault, ${o.recoveryS} s recovery -> ${dir}`);
  const before = await variantStatus().catch(() => null);
  const wasUp = before?.variant === o.variant && before.processes.length > 0 && before.processes.every((p) => p.status === 'online');
  if (!wasUp) await variantUp(o.variant);
  // One line per request in k6's log (the runner writes it into the run's k6 options): the series analysed here.
  const env = { LOG_REQUESTS: process.env.LOG_REQUESTS };
  Object.assign(process.env, { LOG_REQUESTS: 'on' });
  const results: FaultResult[] = [];
  const skipped: string[] = [];
  try {
    for (const fault of o.faults) {
      const status = await variantStatus();
      const { kind, arg } = faultKind(fault);
      try {
        if (kind.argument === 'hop') checkHop(o.variant, asHop(arg));
        else planFault(fault, { status, upTarget: o.variant });
      } catch (err) {
        if (!(err instanceof FaultNotApplicable)) throw err;
        skipped.push(`${fault}: ${err.message}`);
        phase(`fault ${fault} skipped: ${err.message}`);
        continue;
      }
      const runId = `${stamp}-${o.variant}-fault-${fault.replace(/[^a-z0-9-]/gi, '-')}`;
      if (kind.argument !== 'hop') results.push(await oneFault(o, fault, rate, runId));
      else {
        // The hop through the fault proxy for this run only: the other faults run the preset as it is.
        const route = await routeHop(o.variant, asHop(arg), dir, new UndoJournal(dir));
        try {
          results.push(await oneFault(o, fault, rate, runId, route.routed));
        } finally {
          await route.unroute();
        }
      }
      writeFaultsReport(dir, results);
    }
  } finally {
    for (const [k, v] of Object.entries(env)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    if (!wasUp) await variantDown();
  }
  const files = writeFaultsReport(dir, results);
  phase(`faults: ${files.markdown} and ${files.json}`);
  return { dir, results, skipped };
}

async function oneFault(o: FaultsOptions, fault: string, rate: number, runId: string, routed?: RoutedHop): Promise<FaultResult> {
  const journal = new UndoJournal(runDir(runId));
  let applied: AppliedFault | null = null;
  let failure: string | null = null;
  phase(`fault ${fault}: run ${runId}`);
  await runTest({
    variant: o.variant,
    profile: o.profile,
    runs: 1,
    runId,
    keepUp: true,
    peak: rate,
    rampS: o.rampS,
    holdS: o.steadyS + o.faultS + o.recoveryS + SLACK_S,
    drainTimeoutS: o.drainTimeoutS,
    dashboard: false,
    hooks: {
      duringLoad: async (_run, status) => {
        await sleep((o.rampS + o.steadyS) * 1000);
        try {
          const fresh = await variantStatus().catch(() => status);
          applied = await applyFault(planFault(fault, { status: fresh, upTarget: o.variant, routed, holdS: o.faultS }), journal, o.faultS * 1000);
          phase(`fault ${fault} on ${applied.target}: injected, held ${((applied.undoneAtMs - applied.injectedAtMs) / 1000).toFixed(1)} s, undone (${applied.undo})`);
        } catch (err) {
          failure = err instanceof Error ? err.message : String(err);
          phase(`fault ${fault} failed: ${failure}`);
        }
      },
    },
  });
  if (!applied) throw new Error(`fault ${fault} was not applied${failure ? `: ${failure}` : ''} (run ${runId})`);
  const record = readRecord(runDir(runId));
  const { requests, iterations } = await readRequestLines(join(runDir(runId), 'k6-run-1.log'));
  const attribution = routed ? await attributeRun(runDir(runId), routed, applied, o) : undefined;
  return analyseFaultRun({
    ...attribution,
    fault,
    variant: o.variant,
    runId,
    rate,
    windows: o,
    applied,
    requests,
    iterations,
    audit: record?.audit ?? null,
    crashes: record?.crashes ?? [],
    valid: record?.valid ?? false,
    reasons: record?.reasons ?? ['no run-1.json'],
  });
}

/** The slowed hop against the steady window's traces: a verdict, or why there is none. */
async function attributeRun(dir: string, routed: RoutedHop, applied: AppliedFault, o: FaultsOptions): Promise<{ attribution: AttributionVerdict | null; attributionError?: string }> {
  const judged = await judgeLatencyRun(dir, routed.hop, o.variant, { fromMs: applied.injectedAtMs - o.steadyS * 1000, toMs: applied.injectedAtMs }, { fromMs: applied.injectedAtMs, toMs: applied.undoneAtMs });
  const verdict = judged.attribution;
  if (verdict) phase(`attribution of ${routed.hop}: p50 +${(verdict.p50.faultMs - verdict.p50.steadyMs).toFixed(0)} ms, largest ${verdict.p50.largest}; p95 +${(verdict.p95.faultMs - verdict.p95.steadyMs).toFixed(0)} ms, largest ${verdict.p95.largest} -> ${verdict.named ? 'named' : 'NOT named'}`);
  else phase(`attribution of ${routed.hop} failed: ${judged.attributionError}`);
  return judged;
}

function readRecord(dir: string): RunRecord | null {
  const file = join(dir, 'run-1.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RunRecord) : null;
}
