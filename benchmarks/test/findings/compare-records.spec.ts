// findings --compare on fixture records: two findings.json as --evaluate writes them (the same
// --quick run on two hosts), compared claim by claim, written as Markdown and JSON, and reached
// through the command's own option.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { defineFindingsCommand } from '../../src/findings/cli';
import { COMPARE_FILES, compareRecords, type FindingsFile, type RecordsComparison } from '../../src/findings/compare-records';

type Part = FindingsFile['results'][number]['parts'][number];
const part = (reads: string, verdict: string, diff: number, lo: number, hi: number, s = 0.0714): Part => ({
  test: { reads, level: 'paper', metric: 'efr', expect: 'lower' },
  difference: { diff, lo, hi },
  verdict: { verdict },
  evidence: { kind: 'measured-scaled', s },
});
const claim = (id: string, verdict: string, parts: Part[]) => ({ claim: { id, title: `claim ${id}` }, verdict, parts });
const host = (scrypt: number, spawn: number, bootId: string) => ({ 'naked-mon@paper': { scryptN14Ms: scrypt, spawnMs: spawn, bootId }, 'msa-1-1@paper': { scryptN14Ms: scrypt, spawnMs: spawn, bootId } });

/** Record A: i reproduced, ii refuted, iii inconclusive. */
const A: FindingsFile = {
  plan: { mode: 'quick' },
  record: { mode: 'quick' },
  speeds: host(39, 1.1, 'boot-a'),
  results: [claim('i', 'reproduced', [part('MSA vs MON', 'reproduced', -0.2, -0.3, -0.1)]), claim('ii', 'refuted', [part('replicas', 'refuted', 0.01, -0.02, 0.04)]), claim('iii', 'inconclusive', [part('cache', 'inconclusive', -0.05, -0.2, 0.1)])],
};

describe('compareRecords: two records claim by claim', () => {
  it('the same verdicts: agree on every claim both decide; parts whose effect moved are listed with both intervals', () => {
    const B: FindingsFile = { ...A, speeds: host(60, 1.9, 'boot-b'), results: [claim('i', 'reproduced', [part('MSA vs MON', 'reproduced', -0.25, -0.35, -0.15)]), A.results[1], claim('iii', 'refuted', [part('cache', 'refuted', 0.01, -0.02, 0.03)])] };
    const c = compareRecords(A, B, ['quick-a', 'quick-b']);
    expect(c.claims.map((x) => [x.id, x.verdicts, x.agree])).toEqual([
      ['i', ['reproduced', 'reproduced'], true],
      ['ii', ['refuted', 'refuted'], true],
      ['iii', ['inconclusive', 'refuted'], null],
    ]);
    expect(c.agreeOnDecided).toBe(true);
    expect(c.bothDecided).toEqual(['i', 'ii']);
    expect(c.claims[0].differences).toEqual([
      { part: 'MSA vs MON @ paper (efr, B − A lower)', verdict: ['reproduced', 'reproduced'], effect: [{ diff: -0.2, lo: -0.3, hi: -0.1 }, { diff: -0.25, lo: -0.35, hi: -0.15 }], evidence: ['measured-scaled (s = 0.0714)', 'measured-scaled (s = 0.0714)'] },
    ]);
    expect(c.claims[1].differences).toEqual([]);
    expect(c.claims[2].differences[0].verdict).toEqual(['inconclusive', 'refuted']);
    // 39 vs 60 ms on two boots: the hosts differ, and the comparison says so.
    expect(c.speeds[0].probes).toEqual([{ speed: { scryptN14Ms: 39, spawnMs: 1.1, bootId: 'boot-a' }, cells: ['naked-mon@paper', 'msa-1-1@paper'] }]);
    expect(c.speedMismatch).toMatch(/^the two sides ran on hosts of different speed \(scrypt 2\^14 39 vs 60 ms/);
  });

  it('a flipped verdict is a disagreement, and another evidence kind is a difference', () => {
    const B: FindingsFile = { ...A, speeds: host(40, 1.1, 'boot-a'), results: [claim('i', 'refuted', [part('MSA vs MON', 'refuted', 0.1, 0.05, 0.15, 0.25)]), A.results[1], A.results[2]] };
    const c = compareRecords(A, B, ['a', 'b']);
    expect(c.agreeOnDecided).toBe(false);
    expect(c.disagree).toEqual(['i']);
    expect(c.claims[0].differences[0].evidence).toEqual(['measured-scaled (s = 0.0714)', 'measured-scaled (s = 0.250)']);
    expect(c.speedMismatch).toBeNull();
  });
});

describe('findings --compare <A> <B>', () => {
  const root = mkdtempSync(join(tmpdir(), 'sg-findings-compare-'));
  const write = (name: string, f: FindingsFile): string => {
    mkdirSync(join(root, name), { recursive: true });
    writeFileSync(join(root, name, 'findings.json'), JSON.stringify(f));
    return join(root, name);
  };
  const run = async (args: string[]): Promise<void> => {
    const cmd = defineFindingsCommand(new Command('findings').exitOverride());
    const out = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await cmd.parseAsync(args, { from: 'user' });
    } finally {
      out.mockRestore();
    }
  };

  it('writes findings-compare.md and .json into --out', async () => {
    const a = write('a', A);
    const b = write('b', { ...A, results: [claim('i', 'refuted', [part('MSA vs MON', 'refuted', 0.1, 0.05, 0.15)]), A.results[1], A.results[2]] });
    const out = join(root, 'out');
    await run(['--compare', a, b, '--out', out]);
    const json = JSON.parse(readFileSync(join(out, COMPARE_FILES.json), 'utf8')) as RecordsComparison;
    expect(json).toMatchObject({ schema: 'shellgrade.findings-compare/1', agreeOnDecided: false, disagree: ['i'] });
    const md = readFileSync(join(out, COMPARE_FILES.md), 'utf8');
    expect(md).toContain('they disagree on i of the 2 both decide');
    expect(md).toContain('| (i) claim i | reproduced | refuted | **no** |');
    expect(md).toContain('| i | MSA vs MON @ paper (efr, B − A lower) | reproduced | refuted | -0.200 [-0.300, -0.100] | 0.100 [0.0500, 0.150] |');
  });

  it('reads a published record (docs/findings/quick) as an evaluated one: the two-boot check from a clone', async () => {
    const published = {
      schema: 'shellgrade.published-findings/1', mode: 'quick', startedAt: '2026-12-07T03:14:00Z', speeds: A.speeds,
      claims: A.results.map((r) => ({ id: r.claim.id, title: r.claim.title, verdict: r.verdict, parts: r.parts, rows: [], quote: '', keyFigure: '', evidence: [], rules: '', explanation: [], caveats: [] })),
    };
    mkdirSync(join(root, 'docs-quick'), { recursive: true });
    writeFileSync(join(root, 'docs-quick', 'findings.json'), JSON.stringify(published));
    const b = write('other-boot', { ...A, speeds: host(41, 1.2, 'boot-b'), results: [A.results[0], claim('ii', 'reproduced', [part('replicas', 'reproduced', 0.1, 0.05, 0.15)]), A.results[2]] });
    const out = join(root, 'out-published');
    await run(['--compare', join(root, 'docs-quick'), b, '--out', out]);
    const json = JSON.parse(readFileSync(join(out, COMPARE_FILES.json), 'utf8')) as RecordsComparison;
    expect(json).toMatchObject({ modes: ['quick', 'quick'], agreeOnDecided: false, disagree: ['ii'], bothDecided: ['i', 'ii'] });
    expect(json.speeds[0].probes[0].speed.bootId).toBe('boot-a');
  });

  it('refuses one record, and a folder with no evaluation', async () => {
    await expect(run(['--compare', write('c', A)])).rejects.toThrow('--compare takes two records, not 1');
    mkdirSync(join(root, 'empty'));
    await expect(run(['--compare', join(root, 'c'), join(root, 'empty')])).rejects.toThrow(/findings\.json not found: evaluate the record first/);
  });
});
