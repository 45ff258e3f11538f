import type { Side } from '../../src/compare/sides';
import { paperCoverage } from '../../src/reproduce/configurations';
import { buildScorecard, type ScorecardInput } from '../../src/reproduce/scorecard';
import { rhoText, scorecardHtml, scorecardMarkdown } from '../../src/reproduce/page';
import { runRecord } from '../compare/run-fixtures';

const covered = paperCoverage().covered;

/** A side whose 3 runs have the given hold-stage figures (± 1 % noise), memory share and energy. */
function side(f: { apdex: number; efr: number; throughput: number; lt800: number; mem: number }): Side {
  const runs = [0, 1, -1].map((n, i) => {
    const r = runRecord(i + 1, { paper: { apdex: f.apdex * (1 + 0.01 * n), efr_paper: f.efr, throughput: f.throughput, buckets: { lt800: f.lt800, b800_1200: 0, ge1200: 1 - f.lt800 }, RAC: 1, FR: 0 } as never, energyWh: 0.1 });
    (r.resources as unknown as Record<string, number>).variantMemShare = f.mem;
    return r;
  });
  const machine = { cpuModel: 'Test CPU', cores: 2, memBytes: 8 * 2 ** 30, kernel: '6.1', speed: { scryptN14Ms: 40, spawnMs: 1.5, bootId: 'b' } };
  return { ref: 'x', result: { aggregated: { meta: { machine } } }, runs, excluded: [] } as unknown as Side;
}

function input(transform: (paper: { apdex: number | null; efr: number; throughput: number; lt800: number; memory: number }, i: number) => { apdex: number; efr: number; throughput: number; lt800: number; mem: number }): ScorecardInput {
  const memory: Record<string, number> = { 'Naked MON': 0.99, 'MON×8': 1.34, 'MON×12': 1.76, 'MSA-1-1': 1.87, 'MSA-1-4': 1.38, 'MSA-2-4-4': 1.07 };
  const sides = Object.fromEntries(covered.map((c, i) => [c.variant, side(transform({ ...c.figures, memory: memory[c.label] ?? 1 }, i))]));
  return {
    configurations: covered,
    missing: [],
    sides,
    record: { dir: 'reproduce/2026-12-06', testbed: 'scaled', peak: 96, multiple: 12, searchEfr: 0.6, capacity: { rate: 8, source: 'c.json' }, startedAt: '2026-12-06T01:00:00.000Z', endedAt: '2026-12-06T05:00:00.000Z', commit: 'abcdef0123456789', runsAsked: 3, runs: Object.fromEntries(covered.map((c) => [c.variant, ['a', 'b', 'c']])), failed: [] },
  };
}

describe('the reproduction scorecard', () => {
  it("ranks that keep the paper's order give ρ = 1 (no interval); each row keeps the paper's figure beside ours", () => {
    // Ours: the paper's figures through a monotone map (a smaller machine, a lower rate).
    const s = buildScorecard(input((p) => ({ apdex: (p.apdex ?? 0.5) * 0.9, efr: p.efr / 2, throughput: p.throughput / 12, lt800: p.lt800, mem: p.memory / 1000 })));
    const rho = Object.fromEntries(s.rankings.map((r) => [r.metric, r.rho]));
    expect(rho.apdex).toMatchObject({ n: 6, rho: expect.closeTo(1, 9), lo: null, hi: null });
    expect(rho.efr.n).toBe(15);
    expect(rho.efr.rho).toBeCloseTo(1, 9);
    expect(rho.throughput.rho).toBeCloseTo(1, 9);
    expect(rho.lt800.rho).toBeCloseTo(1, 9);
    expect(rho.memory).toMatchObject({ n: 6, rho: expect.closeTo(1, 9) });
    const naked = s.rows[0];
    expect(naked.label).toBe('Naked MON');
    expect(naked.paper.apdex).toBe(0.56);
    expect(naked.ours.apdex.mean).toBeCloseTo(0.504, 9);
    expect(naked.ours.apdex.n).toBe(3);
    expect(naked.ours.apdex.half).toBeGreaterThan(0);
    expect(naked.ours.efr.mean).toBeCloseTo(0.3075, 9);
    expect(s.machine).toEqual({ cpuModel: 'Test CPU', cores: 2, memGiB: 8, kernel: '6.1', speed: { scryptN14Ms: 40, spawnMs: 1.5 } });
  });

  it('a ranking against the paper has ρ with a Fisher-z interval; reversed it is −1', () => {
    const s = buildScorecard(input((p, i) => ({ apdex: 1 - (p.apdex ?? 0.5), efr: 1 - p.efr, throughput: 2000 - p.throughput, lt800: (i % 5) / 10, mem: p.memory })));
    const byMetric = Object.fromEntries(s.rankings.map((r) => [r.metric, r]));
    expect(byMetric.apdex.rho.rho).toBeCloseTo(-1, 9);
    expect(byMetric.throughput.rho.rho).toBeCloseTo(-1, 9);
    const lt = byMetric.lt800.rho;
    expect(lt.rho).not.toBeNull();
    expect(lt.lo!).toBeLessThan(lt.rho!);
    expect(lt.hi!).toBeGreaterThan(lt.rho!);
    expect(rhoText(byMetric.lt800)).toMatch(/^ρ = -?\d\.\d\d \[-?\d\.\d\d, -?\d\.\d\d\] \(n = 15\)$/);
  });

  it('one page: the ρ table first, paper beside ours per configuration, figures side by side in the HTML', () => {
    const s = buildScorecard(input((p) => ({ apdex: (p.apdex ?? 0.5) * 0.9, efr: p.efr / 2, throughput: p.throughput / 12, lt800: p.lt800, mem: p.memory / 1000 })));
    const md = scorecardMarkdown(s);
    expect(md.indexOf('## Rankings')).toBeLessThan(md.indexOf('## Availability per configuration'));
    expect(md).toContain('| Apdex | ρ = 1.00 no interval (n = 6) |');
    expect(md).toContain('| Naked MON (naked-mon) | 3/3 | 52.9 % | 100.0 % ±0.00 | 27.3 % | 0.00 % ±0.00 | 61.5 % | 30.8 % ±0.00 |');
    expect(md).toContain('| Naked MON (naked-mon) | 3/3 | 43.7 % | 43.7 % ±0.00 | 11.9 % | 0.00 % ±0.00 | 44.4 % | 56.3 % ±0.00 | 0.56 | 0.50 ±0.01 | 460 | 38.3 ±0.0 |');
    expect(md).toContain('| MSA-1-2 (msa-1-2) | 3/3 | 98.7 % | 100.0 % ±0.00 | — |');
    // What a reader reruns, and how long it took.
    expect(md).toContain('Runs 2026-12-06T01:00–2026-12-06T05:00 (240 min), commit abcdef012345;');
    expect(md).toContain('Made by `npm run bench -- reproduce 000 --testbed scaled`; record: reproduce/2026-12-06.');
    const html = scorecardHtml(s);
    expect(html).toContain('grid-template-columns:1fr 1fr');
    expect(html.match(/<canvas id="fig-/g)).toHaveLength(5);
    expect(scorecardMarkdown(JSON.parse(JSON.stringify(s)))).toBe(md);
  });
});
