// Where the CPU goes per process group (cpu-split.ts) and how the main job's report ends with it
// after the trace breakdown (main-job.ts).
import { cpuSplitMarkdown, cpuSplitOf, cpuSplitOfRuns, groupKind } from '../src/cpu-split';
import { mainJobMarkdown, measuredWindow } from '../src/main-job';
import type { Aggregated, RunRecord } from '../src/types';
import { aggregatedFixture } from './support';

const est = (mean: number) => ({ mean, n: 1 }) as unknown as Aggregated['resources'][string];

/** 100 iterations per run; monolith 3 s, postgres 0.5 s, jaeger 0.2 s of a 4 s system; k6 1 s. */
function aggregated(): Aggregated {
  const a = aggregatedFixture('naked-mon', 'monolith', { monolith: 1 }, [{}]);
  a.paper['iterations.started'] = est(100);
  a.resources = {
    'cpuSByGroup.sg-monolith-0': est(3),
    'cpuSByGroup.postgres': est(0.5),
    'cpuSByGroup.jaeger': est(0.2),
    machineCpuSButClient: est(4),
    k6CpuS: est(1),
  };
  a.meta.cpuAccounting = 'cgroup';
  return a;
}

describe('CPU split per process group', () => {
  it('gives each group its ms per iteration and share of the system, largest first, the rest and the client apart', () => {
    const s = cpuSplitOf(aggregated())!;
    expect(s.rows.map((r) => [r.group, r.kind, r.msPerIteration, r.share])).toEqual([
      ['sg-monolith-0', 'Node monolith (with its graders)', 30, 0.75],
      ['postgres', 'PostgreSQL', 5, 0.125],
      ['jaeger', 'Jaeger (traces)', 2, 0.05],
    ]);
    expect(s.machineMsPerIteration).toBe(40);
    expect(s.restMsPerIteration).toBeCloseTo(3, 9);
    expect(s.groupsMsPerIteration).toBeCloseTo(37, 9);
    expect(s.clientMsPerIteration).toBe(10);
  });

  it('says how the machine was read: the run\'s record, else /proc/stat (runs from before the root cgroup was read)', () => {
    const a = aggregated();
    expect(cpuSplitOf(a)!.machineSource).toBe('/proc/stat ticks (user + nice + system + irq)');
    a.meta.machineCpuAccounting = 'cgroup v1 root (cpuacct.usage, ns)';
    expect(cpuSplitMarkdown(cpuSplitOf(a))).toContain("the machine's by cgroup v1 root (cpuacct.usage, ns)");
  });

  it('reads the run records: VALID runs only, else every run, said so (a neighbour\'s load must not hide where the CPU went)', () => {
    const run = (n: number, valid: boolean, monolith: number): RunRecord =>
      ({ run: n, valid, paper: { iterations: { started: 50 } }, resources: { cpuSByGroup: { 'sg-monolith-0': monolith, postgres: 0.5 }, machineCpuSButClient: monolith + 1, k6CpuS: 0.5 } }) as unknown as RunRecord;
    const both = cpuSplitOfRuns([run(1, true, 2), run(2, false, 9)], { cpuAccounting: 'cgroup' })!;
    expect(both.rows[0]).toMatchObject({ group: 'sg-monolith-0', msPerIteration: 40 });
    expect(both.fromInvalid).toBe(false);
    const invalid = cpuSplitOfRuns([run(1, false, 2), run(2, false, 3)], { cpuAccounting: 'cgroup' })!;
    expect(invalid).toMatchObject({ fromInvalid: true, machineMsPerIteration: 70, clientMsPerIteration: 10 });
    expect(cpuSplitMarkdown(invalid)).toContain('**From INVALID runs**');
    expect(cpuSplitOfRuns([], null)).toBeNull();
  });

  it('names the groups a reader knows', () => {
    expect(groupKind('sg-exercise-1')).toBe('Node exercise (with its graders)');
    expect(groupKind('sg-haproxy')).toBe('HAProxy');
    expect(groupKind('rabbitmq')).toBe('RabbitMQ');
  });

  it('says so when no iteration was recorded', () => {
    const a = aggregated();
    a.paper['iterations.started'] = est(0);
    expect(cpuSplitOf(a)).toBeNull();
    expect(cpuSplitMarkdown(null)).toContain('No iteration was recorded');
  });
});

describe("the main job's report", () => {
  it('ends with the trace breakdown, then the CPU split', () => {
    const report = '# shellgrade\n\n## Where latency lives (trace breakdown)\n\n### run\n\n| component | share |\n';
    const md = mainJobMarkdown(report, cpuSplitOf(aggregated()), null);
    expect(md.indexOf('## Where latency lives')).toBeLessThan(md.indexOf('## Where the CPU goes (per process group)'));
    expect(md.trimEnd().split('\n').at(-1)).toBe('| client | k6 (not the system\'s) | 10.0 | — |');
    expect(md).toContain('| **system** | machine busy − client | **40.0** | 100 % |');
  });

  it('says why the breakdown is missing when Jaeger gave none', () => {
    expect(mainJobMarkdown('# r\n', cpuSplitOf(aggregated()), 'Jaeger at http://127.0.0.1:16686 has none of shellgrade-monolith')).toContain('The trace breakdown is missing: Jaeger at');
  });

  it('attributes the measured window of the test', () => {
    const a = aggregated();
    a.meta.startedAt = '2026-12-01T10:00:00.000Z';
    a.meta.endedAt = '2026-12-01T10:01:00.000Z';
    expect(measuredWindow(a)).toEqual({ fromMs: Date.parse(a.meta.startedAt), toMs: Date.parse(a.meta.endedAt) });
  });
});
