// One fault run judged: the windows around the applied fault, time to first error, recovery, the
// audit and the crashes the run recorded (which of them the fault caused on purpose).
import type { Audit } from '../audit';
import type { CrashEvent } from '../crash-watch';
import type { IterationSample, RequestSample } from '../suites/samples';
import type { AttributionVerdict } from './attribution';
import type { AppliedFault } from './guard';
import { recovery, timeToFirstErrorMs, windowFigures, type Recovery, type WindowFigures } from './series';

export interface FaultWindowsS {
  steadyS: number;
  faultS: number;
  recoveryS: number;
  bucketS: number;
}

export interface FaultResult {
  fault: string;
  variant: string;
  runId: string;
  rate: number;
  applied: AppliedFault;
  before: WindowFigures;
  during: WindowFigures;
  after: WindowFigures;
  timeToFirstErrorMs: number | null;
  recovery: Recovery;
  audit: Audit | null;
  /** Requests lost or duplicated by the audit (must be 0); null without an audit. */
  lost: number | null;
  duplicated: number | null;
  crashes: (CrashEvent & { injected: boolean })[];
  valid: boolean;
  reasons: string[];
  /** Latency faults: did the trace breakdown name the slowed hop (null: no verdict, attributionError says why). */
  attribution?: AttributionVerdict | null;
  attributionError?: string;
}

export interface FaultRunInput {
  fault: string;
  variant: string;
  runId: string;
  rate: number;
  windows: FaultWindowsS;
  applied: AppliedFault;
  requests: RequestSample[];
  iterations: IterationSample[];
  audit: Audit | null;
  crashes: CrashEvent[];
  valid: boolean;
  reasons: string[];
  attribution?: AttributionVerdict | null;
  attributionError?: string;
}

/** Before: the steady window just before the inject; during: inject → undo; after: the recovery window after the undo. */
export function analyseFaultRun(i: FaultRunInput): FaultResult {
  const { injectedAtMs, undoneAtMs } = i.applied;
  const endMs = undoneAtMs + i.windows.recoveryS * 1000;
  const before = { fromMs: injectedAtMs - i.windows.steadyS * 1000, toMs: injectedAtMs };
  const targets = i.applied.target;
  return {
    fault: i.fault,
    variant: i.variant,
    runId: i.runId,
    rate: i.rate,
    applied: i.applied,
    before: windowFigures(i.requests, i.iterations, before),
    during: windowFigures(i.requests, i.iterations, { fromMs: injectedAtMs, toMs: undoneAtMs }),
    after: windowFigures(i.requests, i.iterations, { fromMs: undoneAtMs, toMs: endMs }),
    timeToFirstErrorMs: timeToFirstErrorMs(i.requests, injectedAtMs, endMs),
    recovery: recovery(i.requests, before, injectedAtMs, undoneAtMs, endMs, i.windows.bucketS * 1000),
    audit: i.audit,
    lost: i.audit?.lost ?? null,
    duplicated: i.audit?.duplicated ?? null,
    // A crash of what the fault hit, inside its window (+ one poll), was injected; any other is the system's.
    crashes: i.crashes.map((c) => ({ ...c, injected: c.atMs >= injectedAtMs - 2000 && c.atMs <= undoneAtMs + 2000 && targets.includes(c.process.replace(/^native server /, '')) })),
    valid: i.valid,
    reasons: i.reasons,
    ...(i.attribution !== undefined ? { attribution: i.attribution } : {}),
    ...(i.attributionError !== undefined ? { attributionError: i.attributionError } : {}),
  };
}
