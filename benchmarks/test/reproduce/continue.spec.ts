// A reproduction cut short is continued: the runs it lacks, in the rounds' seeded order (the order
// its plan printed), on the boot that made its runs, never past the runs it asked.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { currentBootId } from '../../src/machine-speed';
import { paperResult } from '../../src/findings/loads';
import { NOMINAL_CAPACITY } from '../../src/findings/plan';
import { reproducePlan, reproducePlanText } from '../../src/reproduce/plan';
import { writeReproduceRecord, type ReproduceRecord } from '../../src/reproduce/record';
import { continueReproduction, missingRuns, roundsDue } from '../../src/reproduce/run';
import { registerReproduceCommand } from '../../src/reproduce/cli';

const only = ['naked-mon', 'msa-1-1', 'mon-x4'];

function recordWith(runs: Record<string, string[]>, over: Partial<ReproduceRecord> = {}): ReproduceRecord {
  return {
    paper: '000',
    mode: 'full',
    seed: 7,
    testbed: 'scaled',
    capacity: NOMINAL_CAPACITY,
    search: paperResult([]),
    peak: 5,
    runsAsked: 3,
    budgetMin: 300,
    configurations: reproducePlan({ only, seed: 7 }).configurations.map((c) => ({ label: c.label, variant: c.variant })),
    rounds: [],
    runs,
    failed: [],
    commit: null,
    bootId: currentBootId(),
    startedAt: '2026-12-06T12:00:00Z',
    endedAt: null,
    ...over,
  };
}

describe('roundsDue', () => {
  it("a new reproduction: every configuration in every round, in the plan's printed order", () => {
    const printed = reproducePlanText(reproducePlan({ only, seed: 7, capacity: NOMINAL_CAPACITY }))
      .split('\n')
      .filter((l) => l.startsWith('round '))
      .map((l) => l.replace(/^round \d+: /, '').split(' → '));
    const rounds = roundsDue(recordWith({}));
    expect(rounds.map((r) => r.order)).toEqual(printed);
    expect(rounds.map((r) => r.due)).toEqual(printed);
  });

  it('cut short in round 2: the rest of round 2 in its order, then round 3 whole; a failed run counts as given', () => {
    const [first, second, third] = roundsDue(recordWith({})).map((r) => r.order);
    const record = recordWith({ [first[0]]: ['a1'], [first[1]]: ['b1', 'b2'], [first[2]]: ['c1'] }, { failed: [{ variant: first[0], round: 2, error: 'boom' }] });
    const rounds = roundsDue(record);
    expect(rounds[0].due).toEqual([]);
    expect(rounds[1].due).toEqual(second.filter((v) => v === first[2]));
    expect(rounds[2].due).toEqual(third);
    expect(missingRuns(record)).toBe(1 + 3);
  });
});

describe('continueReproduction refuses', () => {
  const plan = reproducePlan({ only, seed: 7, capacity: NOMINAL_CAPACITY, multipleGiven: true });
  const dir = mkdtempSync(join(tmpdir(), 'sg-reproduce-continue-'));
  // A refusal runs nothing: were one to get past its check, this runner fails it instead of bringing a variant up.
  const runner = {
    run: (): never => {
      throw new Error('ran a configuration');
    },
    down: async () => undefined,
  };

  it('runs of another boot, or of an unrecorded one: its rounds are ranked against each other', async () => {
    await expect(continueReproduction(plan, recordWith({}, { bootId: 'another-boot' }), dir, runner)).rejects.toThrow(/made on boot another-boot, this is boot .*start a new one/);
    await expect(continueReproduction(plan, recordWith({}, { bootId: undefined }), dir, runner)).rejects.toThrow(/made on boot \(not recorded\)/);
  });

  it('a record with no load, or with every run it asked', async () => {
    await expect(continueReproduction(plan, recordWith({}, { peak: null, stoppedEarly: 'no paper-equivalent load' }), dir, runner)).rejects.toThrow(/found no paper-equivalent load/);
    const done = Object.fromEntries(only.map((v) => [v, ['1', '2', '3']]));
    await expect(continueReproduction(plan, recordWith(done), dir, runner)).rejects.toThrow(/already has its 3 runs/);
  });
});

describe('bench reproduce 000 --continue --dry-run', () => {
  it('says what is left, on which boot, and lists the due runs by round', async () => {
    process.env.SG_RESULTS_DIR = mkdtempSync(join(tmpdir(), 'sg-reproduce-continue-cli-'));
    const dir = join(process.env.SG_RESULTS_DIR, 'reproduce', '2026-12-06');
    mkdirSync(dir, { recursive: true });
    const [first] = roundsDue(recordWith({})).map((r) => r.order);
    writeReproduceRecord(dir, recordWith({ [first[0]]: ['a1'] }));
    const out: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    });
    try {
      const program = new Command('bench').exitOverride();
      registerReproduceCommand(program);
      await program.parseAsync(['reproduce', '000', '--continue', '--dry-run'], { from: 'user' });
    } finally {
      write.mockRestore();
    }
    const text = out.join('');
    expect(text).toContain(`continue ${dir}: 8 of 9 runs to go (3 configurations × 3), every one at 5 it/s, testbed scaled, seed 7`);
    expect(text).toContain(`round 1: ${first.slice(1).join(' → ')}\n`);
    expect(text.split('\n').filter((l) => l.startsWith('round '))).toHaveLength(3);
  });
});
