// `bench back-to-back <commit>`: the commands each side runs (plan.ts) and the comparison's table
// and record (report.ts).
import {
  b2bRunId, parseCommit, parseCosts, parsePeaks, parsePresets, parseSteps, probeArgs, smallArgs, overloadArgs, graderCommand, pairOrder, parseGraderModes,
} from '../../src/back-to-back/plan';
import { cellOf, emptySummary, graderTable, parseGraderOutput, summaryMarkdown, type GraderLine } from '../../src/back-to-back/report';
import type { CpuSplit } from '../../src/cpu-split';

describe('back-to-back: what each side runs', () => {
  it("keeps the bash script's commands: small profile per preset and cost, this tree unplaced, run ids that say side, preset and cost", () => {
    const id = b2bRunId('20261210T101010Z', 'new', 'naked-mon-zygote', 1);
    expect(id).toBe('b2b-20261210T101010Z-new-naked-mon-zygote-kdf1');
    expect(smallArgs('new', 'naked-mon-zygote', 1, id)).toEqual(['run', '--variant', 'naked-mon-zygote', '--profile', 'small', '--runs', '1', '--kdf-cost', '1', '--placement', 'off', '--run-id', id]);
    expect(smallArgs('ref', 'msa-zygote-1-2', 'default', 'x')).toEqual(['run', '--variant', 'msa-zygote-1-2', '--profile', 'small', '--runs', '1', '--run-id', 'x']);
    expect(graderCommand(true)).toEqual(['npm', 'run', '--silent', 'bench', '--', 'grader', 'cpu', '--modes', 'zygote,async', '--gradings', '300']);
    // A reference older than `bench grader cpu` measures the same with the script it had (or was given).
    expect(graderCommand(false)).toEqual(['bash', 'benchmarks/grader-baseline/cpu.sh', '--modes', 'zygote,async', '--gradings', '300']);
    expect(overloadArgs('naked-mon-zygote', 48, 'o')).toEqual(['run', '--variant', 'naked-mon-zygote', '--profile', 'students', '--peak', '96', '--runs', '1', '--placement', 'off', '--run-id', 'o']);
  });

  it("probes one step of the original's client, kept up, both sides warmed up alike", () => {
    expect(probeArgs('new', 'naked-mon-zygote', 'default', 44, 'p', true)).toEqual([
      'run', '--variant', 'naked-mon-zygote', '--profile', 'original', '--peak', '44', '--runs', '1', '--keep-up', '--no-dashboard', '--placement', 'off', '--warm-up', 'never', '--run-id', 'p',
    ]);
    // A reference that cannot skip its warm-up: this tree warms up too (its first probe is not the only cold one).
    expect(probeArgs('ref', 'naked-mon-zygote', 1, 8, 'p', false)).not.toContain('--warm-up');
    expect(probeArgs('new', 'naked-mon-zygote', 1, 8, 'p', false)).not.toContain('--warm-up');
    expect(probeArgs('ref', 'naked-mon-zygote', 1, 8, 'p', true)).toEqual(expect.arrayContaining(['--kdf-cost', '1', '--warm-up', 'never']));
  });

  it('alternates which side goes first in a paired step, and measures the exec modes asked for', () => {
    expect([1, 2, 3, 4].map(pairOrder)).toEqual([['ref', 'new'], ['new', 'ref'], ['ref', 'new'], ['new', 'ref']]);
    expect(graderCommand(true, parseGraderModes('zygote'))).toEqual(['npm', 'run', '--silent', 'bench', '--', 'grader', 'cpu', '--modes', 'zygote', '--gradings', '300']);
    expect(() => parseGraderModes('zygote,fork')).toThrow(/async, blocking, pool, zygote/);
  });

  it('refuses what the bash script would have run wrongly', () => {
    expect(parseSteps('small,calibrate')).toEqual(['small', 'calibrate']);
    expect(() => parseSteps('small,calibrate-kdf9')).toThrow(/grader, small, calibrate, overload/);
    expect(parsePresets('naked-mon-zygote, msa-zygote-1-2')).toEqual(['naked-mon-zygote', 'msa-zygote-1-2']);
    expect(() => parsePresets('--rm')).toThrow(/preset names/);
    expect(parsePeaks('4,8,16')).toEqual([4, 8, 16]);
    expect(() => parsePeaks('8,4')).toThrow(/ascending/);
    expect(() => parsePeaks('2.5')).toThrow(/whole/);
    expect(parseCommit('3db71e2')).toBe('3db71e2');
    expect(() => parseCommit('--upload-pack=x')).toThrow(/commit/);
  });

  it('measures the hash costs asked for, in the table\'s order, and refuses an unknown one', () => {
    expect(parseCosts('own')).toEqual(['default']);
    expect(parseCosts('own,kdf1')).toEqual([1, 'default']);
    expect(() => parseCosts('kdf14')).toThrow(/kdf1, own/);
    expect(() => parseCosts('')).toThrow(/kdf1, own/);
  });
});

describe('back-to-back: the record and its table', () => {
  it("reads cpu-per-grading.ts's lines and the host's speed probe", () => {
    const out = [
      'building…',
      'zygote x1: 21.3 CPU ms per grading, of which the service (Node) 2.1 (300 gradings, 0 failed)',
      'async x1: 35.0 CPU ms per grading, of which the service (Node) 9.9 (300 gradings, 0 failed)',
      'speed probe: scrypt 2^14 28 ms before, 29 ms after',
    ].join('\n');
    const p = parseGraderOutput(out, 'ref', 2);
    expect(p.lines).toEqual([
      { side: 'ref', round: 2, mode: 'zygote x1', cpuMsPerGrading: 21.3, nodeMsPerGrading: 2.1 },
      { side: 'ref', round: 2, mode: 'async x1', cpuMsPerGrading: 35, nodeMsPerGrading: 9.9 },
    ]);
    expect(p.probes).toEqual(['ref round 2: speed probe: scrypt 2^14 28 ms before, 29 ms after']);
  });

  it('gives the grader ratio over the pairs of rounds with its interval, and says when it cannot tell the sides apart', () => {
    const line = (side: 'ref' | 'new', round: number, mode: string, cpuMsPerGrading: number): GraderLine => ({ side, round, mode, cpuMsPerGrading, nodeMsPerGrading: null });
    // This session's drifting host: the means are equal, the pairs disagree.
    const noisy = [line('ref', 1, 'zygote x1', 15.9), line('new', 1, 'zygote x1', 17.93), line('ref', 2, 'zygote x1', 18.46), line('new', 2, 'zygote x1', 12.66), line('ref', 3, 'zygote x1', 16.94), line('new', 3, 'zygote x1', 20.85)];
    const steady = [20, 26, 22].flatMap((ref, i) => [line('ref', i + 1, 'async x1', ref), line('new', i + 1, 'async x1', ref * 0.75)]);
    const table = graderTable([...noisy, ...steady, line('new', 4, 'async x1', 99)]).join('\n'); // (a round without its pair is left out)
    expect(table).toMatch(/\| zygote x1 \| 17\.1 \| 17\.1 \| 0\.98 × \| 0\.45–2\.15 × \(holds 1: not told apart\) \| 17\.9\/15\.9, 12\.7\/18\.5, 20\.9\/16\.9 \|/);
    expect(table).toContain('| async x1 | 17.0 | 22.7 |'); // the means too over the pairs only
    expect(table).toMatch(/\| 0\.75 × \| 0\.75–0\.75 × \| 15\.0\/20\.0, 19\.5\/26\.0, 16\.5\/22\.0 \|/);
  });

  it('prints per preset and cost the sustainable rate and the CPU per iteration by process group, new / reference', () => {
    const split = (monolith: number, postgres: number): CpuSplit => ({
      iterations: 100, machineMsPerIteration: monolith + postgres + 2, source: 'cgroup', restMsPerIteration: 2, clientMsPerIteration: 20,
      groupsMsPerIteration: monolith + postgres, machineSource: 'cgroup v1 root (cpuacct.usage, ns)',
      rows: [{ group: 'sg-monolith-0', kind: 'Node monolith (with its graders)', msPerIteration: monolith, share: null }, { group: 'postgres', kind: 'PostgreSQL', msPerIteration: postgres, share: null }],
    });
    const s = emptySummary({ ref: '3db71e2', new: 'abc1234' }, '2026-12-10T10:00:00Z');
    const c = cellOf(s, 'naked-mon-zygote', 1);
    // Three rounds; the third reference run was invalid, so its round is left out of every figure.
    c.small.push(
      { side: 'ref', round: 1, runId: 'b2b-r1', valid: true, split: split(19.2, 3.8) },
      { side: 'new', round: 1, runId: 'b2b-n1', valid: true, split: split(19.2, 1.8) },
      { side: 'new', round: 2, runId: 'b2b-n2', valid: true, split: split(23.04, 2.16) },
      { side: 'ref', round: 2, runId: 'b2b-r2', valid: true, split: split(23.04, 4.56) },
      { side: 'ref', round: 3, runId: 'b2b-r3', valid: false, split: split(99, 99) },
      { side: 'new', round: 3, runId: 'b2b-n3', valid: true, split: split(1, 1) },
    );
    c.calibration.new = { sustainableRate: 62, firstFailedRate: 63, probes: [{ peak: 63, runId: 'p63', valid: true, sustained: false, ko: 0, spsP95Ms: 2700, failures: 'SPS p95 2.7 s' }] };
    c.calibration.ref = { sustainableRate: 44, firstFailedRate: 45, probes: [] };
    cellOf(s, 'naked-mon-zygote', 'default').calibration.ref = { sustainableRate: 8, firstFailedRate: 10, probes: [{ peak: 10, runId: 'p10', valid: true, sustained: false, ko: 6, spsP95Ms: 900, failures: '6 KO on login' }] };
    expect(cellOf(s, 'naked-mon-zygote', 1)).toBe(c);
    const md = summaryMarkdown(s);
    expect(md).toContain('## naked-mon-zygote, paper-faithful hash (kdf cost 1) (kdf1)');
    expect(md).toContain("| sustainable rate, the original's client (0 KO, SPS p95 ≤ 2 s) | **62/s** (63/s: SPS p95 2.7 s) | **44/s** (45/s: over the SLO) | 1.41 × | one calibration a side |");
    // Both pairs say 0.92 × and 0.47 ×: steady ratios, narrow intervals.
    expect(md).toMatch(/\| \*\*CPU ms \/ iteration, system\*\* \(machine − client\) \| 25\.1 \| 27\.3 \| 0\.92 × \| 0\.91–0\.93 × \|/);
    expect(md).toMatch(/\| … postgres \(PostgreSQL\) \| 2\.0 \| 4\.2 \| 0\.47 × \| 0\.47–0\.47 × \|/);
    expect(md).toMatch(/\| \*\*CPU ms \/ iteration, processes under test\*\* \(Σ groups below, each side read alike\) \| 23\.1 \| 25\.3 \| 0\.91 × \|/);
    expect(md).toContain('| rounds paired | 2 of 3 |');
    expect(md).toContain('ref small round 3 b2b-r3 (INVALID)');
    expect(md).toContain('| not measured | **8/s** (10/s: 6 KO on login) | n/a |');
    // The paper-faithful cost before the preset's own.
    expect(md.indexOf('(kdf1)')).toBeLessThan(md.indexOf('(kdfdefault)'));
    // A reference whose harness read the machine from /proc/stat: the system row says it compares two methods.
    for (const x of c.small.filter((x) => x.side === 'ref')) x.split = { ...x.split!, machineSource: '/proc/stat ticks (user + nice + system + irq)' };
    expect(summaryMarkdown(s)).toContain("(machine − client; **read differently**: new by cgroup v1 root (cpuacct.usage, ns), reference by /proc/stat ticks (user + nice + system + irq) — compare the processes' row)");
  });
});
