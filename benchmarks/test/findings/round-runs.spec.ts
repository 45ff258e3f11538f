// One round of the findings or the reproduction: every item once in the given order, run ids
// kept by key, a failed run recorded with its error without stopping the round, saved after each.
import { runRoundInOrder } from '../../src/findings/round-runs';

it('runs each item once in order, keeps run ids by key, records a failure and goes on, saves after every run', async () => {
  const ran: string[] = [];
  const saves: number[] = [];
  const runs: Record<string, string[]> = { 'naked-mon': ['earlier'] };
  const failed: [string, string][] = [];
  const n = await runRoundInOrder(['naked-mon', 'msa-1-1', 'mon-x4'], {
    study: 'reproduce',
    round: 2,
    keyOf: (v) => v,
    run: async (v) => {
      ran.push(v);
      if (v === 'msa-1-1') throw new Error('bring-up failed');
      return { meta: { runId: `${v}-r2` } };
    },
    runs,
    failed: (key, error) => failed.push([key, error]),
    save: () => saves.push(ran.length),
  });
  expect(n).toBe(3);
  expect(ran).toEqual(['naked-mon', 'msa-1-1', 'mon-x4']);
  expect(runs).toEqual({ 'naked-mon': ['earlier', 'naked-mon-r2'], 'mon-x4': ['mon-x4-r2'] });
  expect(failed).toEqual([['msa-1-1', 'bring-up failed']]);
  expect(saves).toEqual([1, 2, 3]);
});
