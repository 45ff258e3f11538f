// The arithmetic of a fault run on recorded series: per-window RAC/EFR/KO causes, time
// to first error, time to recovery (p95 back within +10 % of the pre-fault p95, and staying there).
import { percentile, recovery, timeToFirstErrorMs, windowFigures } from '../src/faults/series';
import type { IterationSample, RequestSample } from '../src/suites/samples';

const T0 = 1_800_000_000_000;
const INJECT = T0 + 10_000;
const UNDO = T0 + 15_000;
const END = T0 + 35_000;

const ok = (t: number, ms: number): RequestSample => ({ t, ms, type: 'verify', outcome: 'ok', cause: null, step: null });
const ko = (t: number, ms: number, cause: string): RequestSample => ({ t, ms, type: 'sps', outcome: 'ko', cause, step: null });

/**
 * A recorded shape: 4 requests/s of 100 ms for 10 s; the fault: 503s and 2 s answers for 5 s; after
 * the undo, 400 ms answers for 6 s (a backlog draining), then 105 ms again (within +10 %).
 */
function series(afterSlowS = 6, lastMs = 105): RequestSample[] {
  const rs: RequestSample[] = [];
  for (let t = T0; t < END; t += 250) {
    if (t < INJECT) rs.push(ok(t, 100));
    else if (t < UNDO) rs.push(t % 1000 === 0 ? ko(t, 30, 'gateway_5xx') : ok(t, 2000));
    else if (t < UNDO + afterSlowS * 1000) rs.push(ok(t, 400));
    else rs.push(ok(t, lastMs));
  }
  return rs;
}

const iterations = (from: number, to: number): IterationSample[] => Array.from({ length: (to - from) / 1000 }, (_, i) => ({ t: from + i * 1000, step: null }));

describe('fault series arithmetic', () => {
  it('nearest-rank p95', () => {
    expect(percentile([], 0.95)).toBeNull();
    expect(percentile(Array.from({ length: 20 }, (_, i) => i + 1), 0.95)).toBe(19);
    expect(percentile([5, 1, 3], 0.95)).toBe(5);
  });

  it('RAC, EFR and KO causes of a window by request start, N = the requests sent in it (no login failed)', () => {
    const rs = series();
    const before = windowFigures(rs, iterations(T0, END), { fromMs: T0, toMs: INJECT });
    expect(before).toMatchObject({ N: 40, OK: 40, KO: 0, RAC: 1, EFR: 0, koCauses: {}, p95Ms: 100 });
    const during = windowFigures(rs, iterations(T0, END), { fromMs: INJECT, toMs: UNDO });
    // 20 requests, one per second a 503 (an SPS: its iteration goes on): 5 KO, 15 OK; N = 20.
    expect(during).toMatchObject({ N: 20, OK: 15, KO: 5, RAC: 1, EFR: 0.25, koCauses: { gateway_5xx: 5 }, p95Ms: 2000 });
    expect(windowFigures([], iterations(T0, END), { fromMs: INJECT, toMs: UNDO })).toMatchObject({ N: 0, RAC: null, EFR: null });
  });

  it('time to first error: from the inject to the end of the first KO ending after it', () => {
    const rs = [ko(INJECT - 5000, 100, 'socket'), ok(INJECT, 100), ko(INJECT + 2000, 500, 'gateway_5xx'), ko(INJECT + 1000, 300, 'timeout')];
    expect(timeToFirstErrorMs(rs, INJECT, END)).toBe(1300);
    // A KO in flight across the inject counts from when it ended.
    expect(timeToFirstErrorMs([ko(INJECT - 200, 500, 'socket')], INJECT, END)).toBe(300);
    expect(timeToFirstErrorMs([ok(INJECT, 100)], INJECT, END)).toBeNull();
    expect(timeToFirstErrorMs([ko(END, 10, 'socket')], INJECT, END)).toBeNull();
  });

  it('recovery: the first bucket from which every bucket is back within +10 % of the pre-fault p95 without a KO', () => {
    const r = recovery(series(6), { fromMs: T0, toMs: INJECT }, INJECT, UNDO, END, 2000);
    expect(r).toMatchObject({ baselineP95Ms: 100, recovered: true, bucketMs: 2000 });
    expect(r.thresholdMs).toBeCloseTo(110);
    // Slow until UNDO + 6 s: buckets start at INJECT + 0, 2, 4, …; the first all-good one at INJECT + 12 s.
    expect(r.sinceInjectMs).toBe(12_000);
    expect(r.sinceUndoMs).toBe(7000);
  });

  it('a fault without effect recovers at once (0 s)', () => {
    const flat = Array.from({ length: 140 }, (_, i) => ok(T0 + i * 250, 100));
    expect(recovery(flat, { fromMs: T0, toMs: INJECT }, INJECT, UNDO, END, 2000)).toMatchObject({ recovered: true, sinceInjectMs: 0, sinceUndoMs: 0 });
  });

  it('not recovered when the last bucket is still above +10 % (with the figure), or when good buckets are followed by a bad one', () => {
    const r = recovery(series(6, 111), { fromMs: T0, toMs: INJECT }, INJECT, UNDO, END, 2000);
    expect(r).toMatchObject({ recovered: false, sinceInjectMs: null, sinceUndoMs: null, lastP95Ms: 111, lastKO: 0 });
    const relapse = [...series(0), ko(END - 500, 10, 'server_5xx')];
    expect(recovery(relapse, { fromMs: T0, toMs: INJECT }, INJECT, UNDO, END, 2000)).toMatchObject({ recovered: false, lastKO: 1 });
  });

  it('exactly +10 % is recovered', () => {
    expect(recovery(series(6, 110), { fromMs: T0, toMs: INJECT }, INJECT, UNDO, END, 2000).recovered).toBe(true);
  });
});

/** The 10 requests of one scenario-R iteration started at `start`, one every `gapMs`; a failed login ends it after 2 (the other 8 never sent). */
function iteration(start: number, gapMs: number, o: { loginKo?: string; spsKo?: string } = {}): RequestSample[] {
  const types = ['opt_login', 'login', 'opt_verify', 'verify', 'opt_sps', 'sps', 'opt_logout', 'logout', 'opt_verify_out', 'verify_out'];
  const out: RequestSample[] = [];
  for (const [k, type] of types.entries()) {
    const t = start + k * gapMs;
    const cause = type === 'login' ? o.loginKo : type === 'sps' ? o.spsKo : undefined;
    out.push(cause ? { t, ms: gapMs / 2, type, outcome: 'ko', cause, step: null } : { t, ms: gapMs / 2, type, outcome: 'ok', cause: null, step: null });
    if (type === 'login' && o.loginKo) break;
  }
  return out;
}

describe('fault windows: every request in exactly one window', () => {
  it('an iteration straddling a window border: its requests, and their share of N, count in the window each was sent in', () => {
    // Started 2 s before the undo, one request every 500 ms: 4 sent during the fault, 6 after it.
    const straddler = iteration(UNDO - 2000, 500);
    const after1 = iteration(UNDO + 1000, 100);
    const rs = [...straddler, ...after1];
    const its: IterationSample[] = [{ t: UNDO - 2000, step: null }, { t: UNDO + 1000, step: null }];
    const during = windowFigures(rs, its, { fromMs: INJECT, toMs: UNDO });
    const after = windowFigures(rs, its, { fromMs: UNDO, toMs: END });
    expect(after).toMatchObject({ N: 16, OK: 16, KO: 0, RAC: 1, EFR: 0 });
    expect(during).toMatchObject({ N: 4, OK: 4, KO: 0, RAC: 1, EFR: 0 });
  });

  it('a failed login counts its 8 unsent requests in N where the login was sent', () => {
    const rs = [...iteration(UNDO - 2000, 500), ...iteration(UNDO + 3000, 100, { loginKo: 'gateway_5xx' })];
    const its: IterationSample[] = [{ t: UNDO - 2000, step: null }, { t: UNDO + 3000, step: null }];
    // After: 6 sent by the straddler, 2 by the failed iteration and its 8 never sent.
    expect(windowFigures(rs, its, { fromMs: UNDO, toMs: END })).toMatchObject({ N: 16, OK: 7, KO: 1, RAC: 0.5, EFR: 9 / 16, koCauses: { gateway_5xx: 1 } });
  });

  it('invariant: each window has OK + KO ≤ N and 0 ≤ EFR ≤ 1, and the windows sum to the whole run (N = 10 × iterations)', () => {
    const rs: RequestSample[] = [];
    const its: IterationSample[] = [];
    for (let start = T0, i = 0; start < END - 15_000; start += 400, i++) {
      // Slow answers around the fault: iterations straddle the inject and the undo.
      const gap = start >= INJECT - 3000 && start < UNDO ? 1500 : 300;
      const failing = start >= INJECT && start < UNDO;
      rs.push(...iteration(start, gap, { loginKo: i % 7 === 0 ? 'timeout' : undefined, spsKo: failing && i % 3 === 0 ? 'gateway_5xx' : undefined }));
      its.push({ t: start, step: null });
    }
    const spans = [{ fromMs: T0, toMs: INJECT }, { fromMs: INJECT, toMs: UNDO }, { fromMs: UNDO, toMs: END }];
    const windows = spans.map((s) => windowFigures(rs, its, s));
    for (const w of windows) {
      expect(w.OK + w.KO).toBeLessThanOrEqual(w.N);
      expect(w.EFR).toBeGreaterThanOrEqual(0);
      expect(w.EFR).toBeLessThanOrEqual(1);
    }
    const whole = windowFigures(rs, its, { fromMs: T0, toMs: END });
    const sum = (k: 'N' | 'OK' | 'KO') => windows.reduce((n, w) => n + w[k], 0);
    expect({ N: sum('N'), OK: sum('OK'), KO: sum('KO') }).toEqual({ N: whole.N, OK: whole.OK, KO: whole.KO });
    expect(whole.N).toBe(10 * its.length);
    expect(whole.OK + whole.KO).toBe(rs.length);
    const causes: Record<string, number> = {};
    for (const w of windows) for (const [c, n] of Object.entries(w.koCauses)) causes[c] = (causes[c] ?? 0) + n;
    expect(causes).toEqual(whole.koCauses);
  });
});
