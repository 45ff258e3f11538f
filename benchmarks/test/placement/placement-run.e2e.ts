// e2e-variants: naked-mon
// The runner with placement on against a real variant (naked-mon, brought up here; the launcher
// keeps it when already up): while k6 sends load, every process of the variant and of its native
// servers — grader children born during the load included — may run only on the system's CPU and
// k6 only on the client's; afterwards everything is back on every CPU, and the run folder records
// the placement. Needs a usable cpuset with 2 CPUs (skipped, and saying so, elsewhere).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { procTable } from '../../src/proc-times';
import { descendantsOf } from '../../src/resource-sampler';
import { runTest } from '../../src/run-test';
import { processGroupsOf, variantStatus, variantUp } from '../../src/stack';
import { allowedCpus } from '../../src/placement/allowed';
import { detectCpuset } from '../../src/placement/detect';
import type { RunRecord, TestMeta } from '../../src/types';

jest.setTimeout(600_000);

const detection = detectCpuset();
const usable = detection.available && detection.flavour.cpus.length >= 2 && process.getuid?.() === 0;
const cmdline = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
};
const work = mkdtempSync(join(tmpdir(), 'sg-placement-e2e-'));

if (usable) {
  it('bench run --client-cpus 1 --sut-cpus 0 (smoke): the system, graders born under load included, on CPU 0, k6 on CPU 1, all undone after', async () => {
    await variantUp('naked-mon');
    process.env.SG_RESULTS_DIR = join(work, 'results');
    const seen = new Map<number, { cpus: number[] | null; born: boolean }>();
    let k6Cpus: number[] | null = null;
    let polls = 0;
    const a = await runTest({
      variant: 'naked-mon',
      profile: 'smoke',
      runs: 1,
      pauseS: 0,
      runId: 'e2e-placement',
      dashboard: false,
      placement: { clientCpus: '1', sutCpus: '0' },
      hooks: {
        // Until a process born during the load under a variant process has been seen (a grader; those present at k6's start are not), bounded by a number of polls.
        duringLoad: async (_run, status) => {
          const roots = processGroupsOf(status).map((g) => g.pid);
          for (let known: Set<number> | null = null; polls < 2000 && ![...seen.values()].some((s) => s.born); polls++) {
            const table = await procTable();
            const now = roots.flatMap((r) => descendantsOf(r, table)).filter((pid) => table.some((p) => p.pid === pid));
            known ??= new Set(now);
            for (const pid of now) if (!seen.has(pid)) seen.set(pid, { cpus: allowedCpus(pid), born: !known.has(pid) });
            const k6 = table.find((p) => p.ppid === process.pid && cmdline(p.pid).includes('k6'));
            if (k6) k6Cpus = allowedCpus(k6.pid);
            await new Promise((r) => setTimeout(r, 20));
          }
        },
      },
    });
    const born = [...seen.entries()].filter(([, s]) => s.born);
    expect(born.length).toBeGreaterThan(0);
    for (const [pid, s] of seen) if (s.cpus) expect({ pid, cpus: s.cpus }).toEqual({ pid, cpus: [0] });
    expect(k6Cpus).toEqual([1]);

    const dir = join(work, 'results', 'e2e-placement');
    const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as TestMeta;
    expect(meta.placement).toMatchObject({ state: 'on', clientCpus: [1], sutCpus: [0], cgroup: detection.available ? detection.flavour.version : 0 });
    expect(meta.placement!.releasedAt).toBeDefined();
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { placement: { state: string } };
    expect(manifest.placement.state).toBe('on');
    const run1 = JSON.parse(readFileSync(join(dir, 'run-1.json'), 'utf8')) as RunRecord;
    expect(run1.resources.client).toMatchObject({ cores: 1, limitShare: 0.7 });
    expect(run1.reasons.filter((r) => /placement/.test(r))).toEqual([]);
    process.stderr.write(`placement e2e: ${a.validRuns}/1 VALID ${JSON.stringify(run1.reasons)}; client ${JSON.stringify(run1.resources.client)}; born under load: ${born.map(([p, s]) => `${p}:${s.cpus}`).join(' ')}\n`);

    const after = await variantStatus();
    for (const g of processGroupsOf(after)) expect({ pid: g.pid, cpus: allowedCpus(g.pid) }).toEqual({ pid: g.pid, cpus: detection.available ? detection.flavour.cpus : [] });
    expect(allowedCpus(process.pid)).toEqual(detection.available ? detection.flavour.cpus : []);
  });
} else {
  it(`placement is unavailable here: ${detection.available ? 'needs root and 2 CPUs' : detection.reason}`, () => undefined);
}
