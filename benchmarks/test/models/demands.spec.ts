// Service demands from the harness's run folders (fixtures: run 1 of three `small` runs, k6 trimmed).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { demandsFromRuns, gradingCpuS, measureDemands, readMeta, readRuns } from '../../src/models/demands';
import { measuredFromRuns, readK6Metrics } from '../../src/models/measured';

const fixture = (name: string) => join(__dirname, '..', 'fixtures', 'models', name);

describe('service demands from a run folder', () => {
  it('msa: leftover CPU per iteration is the session class, exercise CPU (both replicas) the sps class', () => {
    const d = measureDemands(fixture('msa-1-2-small'));
    // run-1.json: 459 iterations; leftover 23.7487 s; exercise 22.7687 + 22.5914 s; gateway 6.5220 s.
    expect(d.iterations).toBe(459);
    expect(d.components.app.session).toBeCloseTo(23.748730508 / 459, 9);
    expect(d.components.app.sps).toBeCloseTo((22.768689209 + 22.591408556) / 459, 9);
    expect(d.components.gateway.sps).toBeCloseTo((6.521971249 / 459) * 0.2, 9);
    expect(d.components.gateway.session).toBeCloseTo((6.521971249 / 459) * 0.8, 9);
    expect(d.components.broker).toEqual({ session: 0, sps: 0 });
    expect(d.components.loadgen.sps + d.components.loadgen.session).toBeCloseTo(11.569122998 / 459, 9);
  });

  it('brokered msa: the broker CPU is all sps', () => {
    const d = measureDemands(fixture('msa-rabbitmq-1-2-small'));
    expect(d.components.broker.session).toBe(0);
    expect(d.components.broker.sps).toBeCloseTo(1.321364436 / d.iterations, 9);
  });

  it("monolith: one grading of the sandboxed baseline is the sps class's CPU, the rest is session", () => {
    const dir = fixture('naked-mon-small');
    const d = measureDemands(dir);
    const grading = gradingCpuS(JSON.parse(readFileSync(join(dir, 'grader-baseline.json'), 'utf8')));
    expect(grading).toBeGreaterThan(0);
    expect(d.components.app.sps).toBeCloseTo(grading!, 9);
    expect(d.components.app.session + d.components.app.sps).toBeCloseTo(84.492357051 / d.iterations, 9);
  });

  it('takes the cheapest sandbox-per-grading mode of the baseline, never a zygote row', () => {
    const row = (exec: string, msPerGrading: number) => ({ exec, isolation: 'bwrap', concurrency: 1, msPerGrading });
    const rows = [row('async', 87), row('pool', 49), row('blocking', 76)];
    expect(gradingCpuS({ rows })).toBe(0.049);
    expect(gradingCpuS({ rows: [...rows, row('zygote', 20)] })).toBe(0.049);
  });

  it('refuses a folder without a valid run, and a monolith run without its grader baseline', () => {
    const dir = fixture('naked-mon-small');
    const meta = readMeta(dir);
    const runs = readRuns(dir);
    expect(() => demandsFromRuns(dir, meta, runs.map((r) => ({ ...r, valid: false })), null)).toThrow(/no VALID run/);
    expect(() => demandsFromRuns(dir, meta, runs, null)).toThrow(/grader-baseline\.json/);
  });

  it('reads what the run measured: hold throughput, class response times from k6, CPU cores per station', () => {
    const dir = fixture('msa-1-2-small');
    const m = measuredFromRuns(readRuns(dir), (run) => readK6Metrics(dir, run));
    expect(m.spsPerS).toBe(9);
    expect(m.requestsPerS).toBe(90);
    const metrics = readK6Metrics(dir, 1);
    expect(m.responseTimeS.sps).toBeCloseTo((metrics['sg_rt_ok_sps{stage:hold}'].values!.avg! + metrics['sg_rt_ok_opt_sps{stage:hold}'].values!.avg!) / 1000, 9);
    expect(m.cpuCoresByStation.exercise).toBeCloseTo((22.768689209 + 22.591408556) / 85.456963954, 9);
  });
});
