/** Control-group detection on fake hierarchies: v2 where delegated, else v1, else nothing. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GradingCgroups } from '../src/grading-cgroups';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

/** A fake /sys/fs/cgroup: `files` maps relative paths to contents (folders are made on the way). */
function fakeMount(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'sg-cg-'));
  roots.push(root);
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), body);
  }
  return root;
}

const limits = { pids: 64, memoryBytes: 1 << 30 };

describe('GradingCgroups.detect', () => {
  it('uses cgroup v2 where the unified hierarchy delegates pids and memory, nested under the own group', async () => {
    const root = fakeMount({ 'cgroup.controllers': 'cpuset cpu io memory pids', 'svc/cgroup.subtree_control': 'cpu memory pids' });
    const cg = GradingCgroups.detect(root, '0::/svc\n');
    expect(cg?.version).toBe(2);
    const job = await cg!.acquire(limits);
    expect(job.procsFiles).toEqual([join(root, 'svc', `shellgrade-p${process.pid}`, 'job-1', 'cgroup.procs')]);
    expect(readFileSync(join(root, 'svc', `shellgrade-p${process.pid}`, 'job-1', 'pids.max'), 'utf8')).toBe('64');
  });

  it('falls back to v1 on a hybrid machine whose unified mount has no controllers', () => {
    const root = fakeMount({
      'unified/cgroup.controllers': '',
      'pids/cgroup.procs': '',
      'memory/cgroup.procs': '',
      'memory/svc/cgroup.procs': '',
      'cpu/cgroup.procs': '',
    });
    const cg = GradingCgroups.detect(root, '8:pids:/\n4:memory:/svc\n1:cpu:/\n0::/\n');
    expect(cg?.version).toBe(1);
    expect(cg?.controllers).toEqual([
      join(root, 'pids', `shellgrade-p${process.pid}`),
      join(root, 'memory', 'svc', `shellgrade-p${process.pid}`),
      join(root, 'cpu', `shellgrade-p${process.pid}`),
    ]);
  });

  it('offers nothing without a pids controller (rlimits only)', () => {
    const root = fakeMount({ 'memory/cgroup.procs': '' });
    expect(GradingCgroups.detect(root, '4:memory:/\n0::/\n')).toBeUndefined();
  });
});

describe('GradingCgroups recycling', () => {
  const v2 = () => {
    const root = fakeMount({ 'cgroup.controllers': 'memory pids', 'svc/cgroup.subtree_control': 'memory pids' });
    const cg = GradingCgroups.detect(root, '0::/svc\n')!;
    const fileOf = (name: string, file: string) => join(root, 'svc', `shellgrade-p${process.pid}`, name, file);
    const leave = (name: string, procs: string, pids: string) => {
      writeFileSync(fileOf(name, 'cgroup.procs'), procs);
      writeFileSync(fileOf(name, 'pids.current'), pids);
    };
    return { cg, fileOf, leave };
  };

  it('hands an emptied group to the next grading with the same limits', async () => {
    const { cg, leave } = v2();
    const first = await cg.acquire(limits);
    leave(first.name, '', '0');
    await first.release();
    expect((await cg.acquire(limits)).name).toBe(first.name);
  });

  it('never hands out a group a grading still holds, nor one made for other limits', async () => {
    const { cg, leave } = v2();
    const held = await cg.acquire(limits);
    const other = await cg.acquire(limits);
    expect(other.name).not.toBe(held.name);
    leave(other.name, '', '0');
    await other.release();
    expect((await cg.acquire({ ...limits, pids: 8 })).name).not.toBe(other.name);
  });

  it.each([
    ['a process', '4242\n', '1'],
    ['an unreaped pid', '', '1'],
  ])('removes a group that still holds %s instead of recycling it', async (_what, procs, pids) => {
    const { cg, leave } = v2();
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined); // the fake folder holds files: rmdir refuses
    const first = await cg.acquire(limits);
    leave(first.name, procs, pids);
    await first.release();
    expect((await cg.acquire(limits)).name).not.toBe(first.name);
    warn.mockRestore();
  });
});
