/**
 * A replica's sandboxed gradings spend the replica's CPU quota (the benchmark's scale model,
 * docs/design.md, Testing claims about scale): told its group (SG_CPU_CGROUP), the grader makes
 * each grading's cpu group under it, so a sandbox's process sits in the replica's subtree and the
 * replica's quota throttles it. Real bwrap, real cgroup v1 cpu controller, one grading per exec
 * mode.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { closeGraders, grader, makeSandboxRoot, pollUntil, scriptJob } from './sandbox-helpers';

jest.setTimeout(120_000);

const CPU = '/sys/fs/cgroup/cpu';
const REPLICA = `/sg-scale-test-${process.pid}/sg-monolith-0`;
const dir = join(CPU, REPLICA);
const sandbox = makeSandboxRoot('replica-quota');

/** A tenth of a CPU: a grading that burns CPU is throttled within a few periods. */
beforeAll(() => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'cpu.cfs_period_us'), '100000');
  writeFileSync(join(dir, 'cpu.cfs_quota_us'), '10000');
  process.env.SG_CPU_CGROUP = REPLICA;
});
afterEach(() => closeGraders());
afterAll(() => {
  delete process.env.SG_CPU_CGROUP;
  sandbox.cleanup();
  for (const d of [dir, join(CPU, `sg-scale-test-${process.pid}`)]) if (existsSync(d)) rmdirSync(d);
});

const throttled = (): number => Number(/^nr_throttled (\d+)$/m.exec(readFileSync(join(dir, 'cpu.stat'), 'utf8'))![1]);

/** Pids in any grading group under the replica's, with the cpu cgroup /proc says each is in. */
function sandboxPids(): { pid: string; cgroup: string }[] {
  const own = join(dir, `shellgrade-p${process.pid}`);
  if (!existsSync(own)) return [];
  return readdirSync(own)
    .filter((n) => n.startsWith('job-'))
    .flatMap((job) => readFileSync(join(own, job, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean))
    .map((pid) => {
      try {
        return { pid, cgroup: /^\d+:(?:[^:]*,)?cpu(?:,[^:]*)?:(.*)$/m.exec(readFileSync(`/proc/${pid}/cgroup`, 'utf8'))![1] };
      } catch {
        return { pid, cgroup: 'gone' };
      }
    })
    .filter((p) => p.cgroup !== 'gone');
}

const burn = ['import json', 'x = 0', 'for i in range(6_000_000):', '    x += i', `print(json.dumps({"grade": 0, "comment": [{"numQ": 1, "verif": "burn", "status": "OK", "expl": str(x > 0)}]}))`].join('\n');

it('this machine has the cgroup v1 cpu controller, so the tests below test it', () => {
  expect(existsSync(join(CPU, 'cpu.cfs_quota_us'))).toBe(true);
});

it.each(['async', 'zygote'] as const)('%s: the sandbox of a grading sits in the replica\'s cpu group and is throttled by its quota', async (exec) => {
  const g = grader(sandbox.root, { exec, poolSize: 1, maxConcurrent: 1, timeoutMs: 60_000 });
  expect(g.cgroups!.controllers).toContain(join(dir, `shellgrade-p${process.pid}`));
  const before = throttled();
  let seen: { pid: string; cgroup: string }[] = [];
  const grading = g.grade(scriptJob(burn));
  let done = false;
  void grading.finally(() => (done = true));
  await pollUntil('a sandbox process in a grading group under the replica', () => {
    seen = sandboxPids();
    return seen.length > 0 || done;
  });
  const r = await grading;
  expect(r.comment[0].expl).toBe('True');
  expect(seen.length).toBeGreaterThan(0);
  for (const p of seen) expect(p.cgroup.startsWith(`${REPLICA}/shellgrade-p${process.pid}/job-`)).toBe(true);
  expect(throttled()).toBeGreaterThan(before);
});
