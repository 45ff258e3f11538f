// Detection of the cpuset a machine offers (fabricated /sys/fs/cgroup trees), the CPU list format,
// the plan (defaults, options, contradictions) and which processes count as the system under test.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatCpuList, parseCpuList, parseCpusAllowed } from '../../src/placement/cpu-list';
import { detectCpuset, type CpusetDetection } from '../../src/placement/detect';
import { placementDefault, planPlacement, placementText } from '../../src/placement/plan';
import { sutPids } from '../../src/placement/targets';
import { trespassers } from '../../src/placement/allowed';

let base: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'sg-cgroup-'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function files(dir: string, entries: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(entries)) writeFileSync(join(dir, name), text + '\n');
}

describe('CPU lists', () => {
  it('reads and writes the kernel format', () => {
    expect(parseCpuList('0-2,4')).toEqual([0, 1, 2, 4]);
    expect(parseCpuList('1')).toEqual([1]);
    expect(parseCpuList('')).toEqual([]);
    expect(formatCpuList([4, 0, 2, 1])).toBe('0-2,4');
    expect(() => parseCpuList('a-b')).toThrow(/not a CPU list/);
    expect(() => parseCpuList('3-1')).toThrow(/backwards/);
    expect(parseCpusAllowed('Name:\tsleep\nCpus_allowed:\t2\nCpus_allowed_list:\t1\nMems_allowed:\t1\n')).toEqual([1]);
    expect(parseCpusAllowed('Name:\tsleep\n')).toBeNull();
  });
});

describe('detectCpuset', () => {
  it('finds a cgroup v1 cpuset hierarchy and its CPUs and memory nodes', () => {
    files(join(base, 'cpuset'), { 'cpuset.cpus': '0-1', 'cpuset.effective_cpus': '0-1', 'cpuset.mems': '0', 'cgroup.procs': '' });
    const d = detectCpuset(base, '3:cpuset:/\n0::/\n');
    expect(d).toEqual({ available: true, flavour: { version: 1, parent: join(base, 'cpuset'), home: join(base, 'cpuset'), cpus: [0, 1], mems: '0' } });
  });

  it('falls back to a unified hierarchy only when it offers the cpuset controller', () => {
    files(base, { 'cgroup.controllers': 'cpu io memory pids', 'cgroup.subtree_control': '' });
    const without = detectCpuset(base, '0::/\n');
    expect(without.available).toBe(false);
    expect((without as { reason: string }).reason).toMatch(/no cgroup v1 cpuset hierarchy.*offers \[cpu io memory pids\] without cpuset/);
    files(base, { 'cgroup.controllers': 'cpuset cpu io memory pids', 'cpuset.cpus.effective': '0-3', 'cpuset.mems.effective': '0' });
    expect(detectCpuset(base, '0::/\n')).toEqual({ available: true, flavour: { version: 2, parent: base, home: base, cpus: [0, 1, 2, 3], mems: '0' } });
  });

  it('uses a delegated v2 subtree (the parent of our own cgroup) when the root offers no cpuset', () => {
    // This machine's shape: v1 controllers beside a unified mount that only has hugetlb at its root.
    files(join(base, 'unified'), { 'cgroup.controllers': 'hugetlb', 'cgroup.subtree_control': '' });
    files(join(base, 'unified', 'user.slice'), { 'cgroup.controllers': 'cpuset cpu', 'cgroup.subtree_control': '', 'cpuset.cpus.effective': '2-3', 'cpuset.mems.effective': '0' });
    const d = detectCpuset(base, '0::/user.slice/me.scope\n');
    expect(d).toEqual({ available: true, flavour: { version: 2, parent: join(base, 'unified', 'user.slice'), home: join(base, 'unified', 'user.slice', 'me.scope'), cpus: [2, 3], mems: '0' } });
  });

  it('says why when neither is usable', () => {
    files(join(base, 'unified'), { 'cgroup.controllers': 'hugetlb', 'cgroup.subtree_control': '' });
    const d = detectCpuset(base, '0::/\n');
    expect(d.available).toBe(false);
    expect((d as { reason: string }).reason).toBe(`no cgroup v1 cpuset hierarchy at ${join(base, 'cpuset')}; cgroup v2 at ${join(base, 'unified')} offers [hugetlb] without cpuset`);
  });
});

const twoCpus: CpusetDetection = { available: true, flavour: { version: 1, parent: '/x', home: '/x', cpus: [0, 1], mems: '0' } };
const fourCpus: CpusetDetection = { available: true, flavour: { version: 1, parent: '/x', home: '/x', cpus: [0, 1, 2, 3], mems: '0' } };
const none: CpusetDetection = { available: false, reason: 'no cgroup v1 cpuset hierarchy at /sys/fs/cgroup/cpuset' };
const small = { profileName: 'small' };
const stress = { profileName: 'stress', suiteKind: 'stress' };

describe('placement plan', () => {
  it('is on by default for findings, stress and spike suites and the students overload profile; off for plain and smoke runs', () => {
    expect(placementDefault({ profileName: 'small', findings: true }).on).toBe(true);
    expect(placementDefault(stress).on).toBe(true);
    expect(placementDefault({ profileName: 'spike', suiteKind: 'spike' }).on).toBe(true);
    expect(placementDefault({ profileName: 'students' }).on).toBe(true);
    expect(placementDefault(small).on).toBe(false);
    expect(placementDefault({ profileName: 'soak', suiteKind: 'soak' }).on).toBe(false);
    expect(placementDefault({ profileName: 'stress-smoke', suiteKind: 'stress' }).on).toBe(false);
    expect(planPlacement({}, small, twoCpus)).toEqual({ state: 'off', why: 'default off for the small profile', clientCpus: [], sutCpus: [] });
  });

  it('gives the client the highest CPU and the system the others when no list is given', () => {
    expect(planPlacement({}, stress, twoCpus)).toEqual({ state: 'on', why: 'default for stress suites', clientCpus: [1], sutCpus: [0], cgroup: 1 });
    expect(planPlacement({}, stress, fourCpus)).toMatchObject({ clientCpus: [3], sutCpus: [0, 1, 2] });
  });

  it('takes the lists given (one list: the other side is the rest), which also turn it on', () => {
    expect(planPlacement({ clientCpus: '0', sutCpus: '1' }, small, twoCpus)).toMatchObject({ state: 'on', why: '--client-cpus/--sut-cpus given', clientCpus: [0], sutCpus: [1] });
    expect(planPlacement({ clientCpus: '2-3' }, small, fourCpus)).toMatchObject({ clientCpus: [2, 3], sutCpus: [0, 1] });
    expect(planPlacement({ sutCpus: '0' }, small, fourCpus)).toMatchObject({ clientCpus: [1, 2, 3], sutCpus: [0] });
    expect(planPlacement({ mode: 'on' }, small, twoCpus)).toMatchObject({ state: 'on', why: '--placement on' });
    expect(planPlacement({ mode: 'off' }, stress, twoCpus)).toMatchObject({ state: 'off', why: '--placement off' });
  });

  it('refuses lists that overlap, leave a side empty, name CPUs the machine lacks, or contradict --placement off', () => {
    expect(() => planPlacement({ clientCpus: '0-1', sutCpus: '1' }, small, twoCpus)).toThrow(/share CPU 1/);
    expect(() => planPlacement({ clientCpus: '0-1' }, small, twoCpus)).toThrow(/both sides: client 0-1, system none/);
    expect(() => planPlacement({ clientCpus: '5' }, small, twoCpus)).toThrow(/CPU 5 not in this cpuset \(0-1\)/);
    expect(() => planPlacement({ mode: 'off', clientCpus: '1' }, small, twoCpus)).toThrow(/contradicts/);
  });

  it('is unavailable, with the reason, when the machine offers no cpuset or a single CPU — never silently off', () => {
    const p = planPlacement({}, stress, none);
    expect(p.state).toBe('unavailable');
    expect(placementText(p)).toBe('unavailable — default for stress suites, but no usable cpuset: no cgroup v1 cpuset hierarchy at /sys/fs/cgroup/cpuset');
    const one: CpusetDetection = { available: true, flavour: { version: 2, parent: '/x', home: '/x', cpus: [0], mems: '' } };
    expect(planPlacement({}, stress, one)).toMatchObject({ state: 'unavailable', why: expect.stringMatching(/one CPU \(0\)/) });
  });
});

describe('the system under test, as processes', () => {
  // 1 init ─ 10 pm2 daemon ─ 20 service ─ 21 grader ─ 22 student script
  //        │               └ 30 postgres ─ 31 backend
  //        └ 40 npm ─ 50 harness ─ 60 k6 ; 10 also runs 70, somebody else's app
  const table = [
    { pid: 10, ppid: 1 }, { pid: 20, ppid: 10 }, { pid: 21, ppid: 20 }, { pid: 22, ppid: 21 },
    { pid: 30, ppid: 10 }, { pid: 31, ppid: 30 }, { pid: 40, ppid: 1 }, { pid: 50, ppid: 40 }, { pid: 60, ppid: 50 }, { pid: 70, ppid: 10 },
  ];
  const cmd = (pid: number): string => (pid === 10 ? 'PM2 v5.4.2: God Daemon (/root/.pm2)' : 'node');

  it('is every root with all its descendants and the supervisor that restarts them, not its other children, never the harness', () => {
    expect(sutPids([20, 30], table, cmd, [50]).sort((a, b) => a - b)).toEqual([10, 20, 21, 22, 30, 31]);
    // A root that is the harness or one of its ancestors is refused: the client stays the client.
    expect(sutPids([40, 50], table, cmd, [50])).toEqual([]);
    // A parent that is no supervisor is left alone; a root already gone is skipped.
    expect(sutPids([21, 99], table, () => 'bash', [50]).sort()).toEqual([21, 22]);
  });

  it('names the processes allowed on a forbidden CPU', () => {
    const allowed: Record<number, number[]> = { 20: [0], 21: [0, 1], 22: [1] };
    expect(trespassers([20, 21, 22, 99], [1], (pid) => allowed[pid] ?? null)).toEqual([{ pid: 21, cpus: [0, 1] }, { pid: 22, cpus: [1] }]);
  });
});
