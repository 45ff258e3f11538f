// `npm run bench -- reproduce 000 --dry-run` as typed: the plan with its planned wall time against
// the budget, --runs N taken, nothing run (an empty results folder: no calibration to read).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { registerReproduceCommand } from '../../src/reproduce/cli';

async function dryRun(args: string[]): Promise<string> {
  process.env.SG_RESULTS_DIR = mkdtempSync(join(tmpdir(), 'sg-reproduce-cli-'));
  const program = new Command('bench').exitOverride();
  registerReproduceCommand(program);
  const out: string[] = [];
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  });
  try {
    await program.parseAsync(['reproduce', '000', '--dry-run', ...args], { from: 'user' });
  } finally {
    write.mockRestore();
  }
  return out.join('');
}

describe('bench reproduce 000 --dry-run', () => {
  it('prints the plan with its time budget and takes --runs N', async () => {
    const text = await dryRun(['--runs', '4', '--seed', '7', '--budget-min', '900']);
    expect(text).toMatch(/^reproduce 000: 15 configurations of Tables I–II × 4 runs = 60 runs; testbed unscaled/);
    expect(text).toMatch(/planned wall time: \d+ min \([\d.]+ min a round: .*\), ≤ \d+ min if every run is overloaded; budget 900 min/);
    expect(text.split('\n').filter((l) => l.startsWith('round '))).toHaveLength(4);
    expect(text).toContain('round 4 (if it fits the budget at the measured pace)');
    expect(text).toMatch(/\nplacement: /);
  });

  it('--smoke --runs 1 of two configurations: the shortest plan; without --smoke one run is refused', async () => {
    const text = await dryRun(['--smoke', '--runs', '1', '--only', 'naked-mon,msa-1-1', '--seed', '7']);
    expect(text).toMatch(/^reproduce 000 \(smoke: the runner end to end, deciding nothing\): 2 configurations of Tables I–II × 1 runs = 2 runs; testbed unscaled; profile smoke/);
    await expect(dryRun(['--runs', '1'])).rejects.toThrow('at least 3 runs a configuration');
  });
});
