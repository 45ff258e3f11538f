// The metric definitions of paper 000 (§IV-C and Table I) as the harness computes them
// (k6/lib/paper-metrics.js, k6/lib/outcome.js). Table I's numbers: fixtures/paper-000-table-1.tsv,
// copied from the paper's text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apdexZone, classify, stageOf } from '../../k6/lib/outcome.js';
import { efrFromRacFr, paperMetrics } from '../../k6/lib/paper-metrics.js';

function tableI(): Record<string, number[]> {
  const rows: Record<string, number[]> = {};
  for (const line of readFileSync(join(__dirname, 'fixtures', 'paper-000-table-1.tsv'), 'utf8').split('\n').filter(Boolean)) {
    const [label, ...cells] = line.split('\t');
    rows[label] = cells.map((c) => Number(c.replace('%', '')) / 100);
  }
  return rows;
}

const counter = (count: number): { values: { count: number } } => ({ values: { count } });

/** k6 summary metrics of a test with N requests planned and Table I's RAC and FR. */
function metricsFor(N: number, rac: number, fr: number): Record<string, unknown> {
  const answered = Math.round(rac * N);
  const KO = Math.round(fr * answered);
  return { sg_iterations_started: counter(N / 10), sg_requests_planned: counter(N), sg_ok: counter(answered - KO), sg_ko: counter(KO) };
}

describe('efr_paper: the EFR paper 000 publishes', () => {
  const t = tableI();
  const rac = t['Request Acceptance Capability (RAC)'];
  const fr = t['Failure Rate (FR)'];
  const efr = t['Effective Failure Rate (EFR)'];

  it('Table I: every EFR equals 1 − RAC·(1 − FR), i.e. (N − OK)/N (to the table\'s rounding)', () => {
    expect(efr).toHaveLength(6);
    efr.forEach((published, i) => expect(Math.abs(efrFromRacFr(rac[i], fr[i]) - published)).toBeLessThan(0.0005));
  });

  it('recomputed from counts by the harness: efr_paper matches Table I, ko_rate (KO/N) does not', () => {
    const N = 1_000_000;
    efr.forEach((published, i) => {
      const p = paperMetrics(metricsFor(N, rac[i], fr[i]), 120, 60, []);
      expect(Math.abs(p.efr_paper! - published)).toBeLessThan(0.0005);
      expect(p.ko_rate).toBeCloseTo(rac[i] * fr[i], 4);
      if (published > 0) expect(Math.abs(p.ko_rate! - published)).toBeGreaterThan(0.02);
    });
  });

  it('requests never sent count against efr_paper, not against ko_rate', () => {
    const p = paperMetrics({ sg_iterations_started: counter(3), sg_requests_planned: counter(30), sg_ok: counter(24), sg_ko: counter(4) }, 10, 4, []);
    expect(p.notSent).toBe(2);
    expect(p.efr_paper).toBeCloseTo(6 / 30);
    expect(p.ko_rate).toBeCloseTo(4 / 30);
    expect(p.RAC).toBeCloseTo(28 / 30);
    expect(p.FR).toBeCloseTo(4 / 28);
  });
});

describe('no third outcome: every request is OK or KO with a cause', () => {
  const ok = [200, 201, 304];
  it.each([
    [201, 0, 30, null],
    [502, 0, 30, 'gateway_5xx'],
    [504, 0, 30, 'gateway_5xx'],
    [500, 0, 30, 'server_5xx'],
    [404, 0, 30, 'unplanned_4xx'],
    [401, 0, 30, 'unplanned_4xx'],
    [202, 0, 30, 'unplanned_status'],
    [0, 1050, 60_000, 'timeout'],
    [0, 1212, 3, 'socket'],
    [201, 0, 60_500, 'late_reply'],
  ])('status %s (k6 error %s, %s ms) -> %s', (status, code, ms, cause) => {
    const r = classify(status, ok, code, ms, 60_000);
    expect(r).toEqual({ outcome: cause === null ? 'ok' : 'ko', cause });
  });

  it('iterations: cut by gracefulStop = started − ended, and every iteration is OK or KO', () => {
    const p = paperMetrics(
      { sg_iterations_started: counter(10), sg_iterations_ended: counter(7), sg_iter_ok: counter(5), sg_iter_ko_timeout: counter(1), sg_iter_ko_no_session_cookie: counter(1), sg_requests_planned: counter(100) },
      10, 4, [],
    );
    expect(p.iterations.koCauses.cut_by_graceful_stop).toBe(3);
    expect(p.iterations.ok + p.iterations.ko).toBe(p.iterations.started);
  });
});

describe('Apdex as gatling-report computes it (T = 1.5 s, F = 6 s, every request)', () => {
  it('zones, KO frustrated', () => {
    expect(apdexZone('ok', 1500, 1500, 6000)).toBe('satisfied');
    expect(apdexZone('ok', 1501, 1500, 6000)).toBe('tolerating');
    expect(apdexZone('ok', 6000, 1500, 6000)).toBe('tolerating');
    expect(apdexZone('ok', 6001, 1500, 6000)).toBe('frustrated');
    expect(apdexZone('ko', 10, 1500, 6000)).toBe('frustrated');
  });

  it('score = (satisfied + tolerating/2) / every request sent', () => {
    const p = paperMetrics({ sg_apdex_satisfied: counter(6), sg_apdex_tolerating: counter(2), sg_apdex_frustrated: counter(2), sg_ok: counter(9), sg_ko: counter(1) }, 1, 1, []);
    expect(p.apdex).toBeCloseTo(0.7);
  });
});

describe('stages', () => {
  it('an iteration belongs to the stage it started in', () => {
    expect(stageOf(1000 + 19_999, 1000, 20)).toBe('ramp');
    expect(stageOf(1000 + 20_000, 1000, 20)).toBe('hold');
  });

  it('stage metrics read the {stage:…} submetrics; SPS throughput at peak is the hold stage\'s', () => {
    const m = { 'sg_ok{stage:hold}': counter(40), 'sg_requests_planned{stage:hold}': counter(50), 'sg_ok_sps{stage:hold}': counter(8), sg_ok: counter(60), sg_requests_planned: counter(80) };
    const hold = paperMetrics(m, 40, 40, [], 'hold');
    expect(hold.OK).toBe(40);
    expect(hold.efr_paper).toBeCloseTo(10 / 50);
    expect(hold.sps.throughputHold).toBeCloseTo(8 / 40);
    expect(paperMetrics(m, 60, 40, []).OK).toBe(60);
  });
});
