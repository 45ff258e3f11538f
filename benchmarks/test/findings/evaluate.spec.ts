import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Side } from '../../src/compare/sides';
import quantile from '@stdlib/stats-base-dists-t-quantile';
import { evaluateFindings, processesOf, type FindingResult, type PartResult } from '../../src/findings/evaluate';
import { CLAIMS, type Claim } from '../../src/findings/claims';
import { configurationsOf, scaleModelFor } from '../../src/placement/scale-model';
import { LEVELS } from '../../src/findings/loads';
import { findingsPlan } from '../../src/findings/plan';
import { evaluateCells } from '../../src/findings/run';
import { atEveryLevel, writeRecordedResults, RECORDED_ROLES } from './recorded';

let root: string;
let cells: Record<string, Side>;
let results: FindingResult[];
/** The same runs as if measured on a system under test with 24 CPUs: every part judged by its interval. */
let roomy: FindingResult[];

/** The cells with their meta changed (the machine's cores, the testbed). */
function withMeta(cs: Record<string, Side>, patch: (m: Side['result']['aggregated']['meta']) => Partial<Side['result']['aggregated']['meta']>): Record<string, Side> {
  return Object.fromEntries(
    Object.entries(cs).map(([k, c]) => {
      const meta = { ...c.result.aggregated.meta, ...patch(c.result.aggregated.meta) };
      return [k, { ...c, result: { ...c.result, aggregated: { ...c.result.aggregated, meta } } }];
    }),
  );
}
const onCores = (cs: Record<string, Side>, cores: number) => withMeta(cs, (m) => ({ machine: { ...m.machine, cores } }));
// The quick plan's cells, run here at every level (the recorded figures do not depend on it).
const quick = findingsPlan('quick', { seed: 1, roles: RECORDED_ROLES });
const plan = { ...quick, protocol: { ...quick.protocol, levels: LEVELS } };
const MARGIN = 0.1;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'sg-findings-'));
  cells = atEveryLevel(writeRecordedResults(root));
  results = evaluateFindings({ plan, cells });
  roomy = evaluateFindings({ plan, cells: onCores(cells, 24) });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const finding = (id: string) => results.find((r) => r.claim.id === id)!;
const roomyFinding = (id: string) => roomy.find((r) => r.claim.id === id)!;

/** The testbed rule as written in verdict.ts RULES.testbed, restated: the recorded machine has 2 cores, no placement. */
function crowded(c: Claim, p: PartResult, cores: number): boolean {
  const perf = ['apdex', 'efr', 'p95', 'spsP95', 'throughput'].includes(p.test.metric);
  const procs = (v: string) => (v.startsWith('mon-x') ? Number(v.slice(5)) + 2 : v === 'msa-1-2' ? 5 : v.startsWith('msa') ? 4 : 2);
  return Boolean(c.scaling) && perf && p.a !== null && p.b !== null && Math.max(procs(p.a.variant), procs(p.b.variant)) > cores;
}

/** The rules as written in verdict.ts RULES, restated independently of its code. */
function oracle(p: PartResult): string {
  const d = p.difference;
  if (!d || d.lo === null || d.hi === null) return 'inconclusive';
  if (d.meanA === 0 && d.meanB === 0) return 'inconclusive';
  const band = MARGIN * Math.max(Math.abs(d.meanA!), Math.abs(d.meanB!));
  // TOST at 5 % ⟺ the 90% interval inside (−band, band): from the 95% one, at Welch's df.
  const df = p.comparison!.tost!.df;
  const half90 = Number.isFinite(df) ? ((d.hi - d.lo) / 2) * (quantile(0.95, df) / quantile(0.975, df)) : 0;
  const within = Math.abs(d.diff!) + half90 < band;
  const above = d.lo > 0;
  const below = d.hi < 0;
  switch (p.test.expect) {
    case 'same':
      return within ? 'reproduced' : (above || below) && Math.abs(d.diff!) > band ? 'refuted' : 'inconclusive';
    case 'higher':
      return above ? 'reproduced' : below || within ? 'refuted' : 'inconclusive';
    case 'lower':
      return below ? 'reproduced' : above || within ? 'refuted' : 'inconclusive';
  }
}

describe('findings evaluation on recorded results (nothing is run)', () => {
  it('applies every part rule as written, on the crowded testbed and on a roomy one', () => {
    for (const [rs, cores] of [[results, 2], [roomy, 24]] as const) {
      const parts = rs.flatMap((r) => r.parts.map((p) => ({ c: r.claim, p })));
      expect(parts.length).toBeGreaterThan(15);
      for (const { c, p } of parts) expect(`${p.test.reads}: ${p.verdict.verdict}`).toBe(`${p.test.reads}: ${crowded(c, p, cores) ? 'not testable' : oracle(p)}`);
    }
  });

  it('combines parts as written: reproduced only if all are, refuted if any is, not testable if any is and none refuted', () => {
    for (const r of [...results, ...roomy]) {
      const v = r.parts.map((p) => p.verdict.verdict);
      const expected = v.every((x) => x === 'reproduced') ? 'reproduced' : v.includes('refuted') ? 'refuted' : v.includes('not testable') ? 'not testable' : 'inconclusive';
      expect(`${r.claim.id}: ${r.verdict}`).toBe(`${r.claim.id}: ${expected}`);
    }
  });

  it('counts the processes the paper ran as containers: replicas, HAProxy when replicated, PostgreSQL', () => {
    expect(processesOf({ replicas: { monolith: 1 } })).toBe(2);
    expect(processesOf({ replicas: { monolith: 2 } })).toBe(4);
    expect(processesOf({ replicas: { gateway: 1, leftover: 1, exercise: 2 } })).toBe(6);
  });

  it('(ii) on a system under test with fewer CPUs than processes: not testable, never refuted — the measured figure kept, what would test it said', () => {
    const r = finding('ii');
    expect(r.verdict).toBe('not testable');
    expect(r.parts.map((p) => p.verdict.verdict)).toEqual(['not testable', 'not testable']);
    expect(r.parts[0].verdict.why).toMatch(/^the system under test has 2 CPUs for 4 processes \(naked-mon 2, mon-x2 4\): replicas share CPU rather than add it.*\(measured: refuted — 95% CI \[/);
    expect(r.parts[0].verdict.settle).toMatch(/--testbed scaled/);
    expect(r.parts[0].difference!.diff).toBeCloseTo(-0.05, 6);
    expect(r.evidence).toEqual(['measured unscaled (system under test: 2 CPUs)']);
  });

  it('(ii) with CPUs to spare: judged by its interval (refuted: the replicated monolith is slower)', () => {
    const r = roomyFinding('ii');
    expect(r.verdict).toBe('refuted');
    expect(r.parts[0].verdict.why).toMatch(/lies below 0: the opposite of the claim/);
  });

  it('(ii) in the scale model: judged by its interval, the evidence says s, the caveat what does not scale', () => {
    const model = scaleModelFor(configurationsOf(['naked-mon', 'mon-x2', 'msa-1-2']), 1);
    const scaled = withMeta(cells, () => ({ placement: { state: 'on', why: 'findings', clientCpus: [1], sutCpus: [0], cgroup: 1, testbed: { testbed: 'scaled', model, cgroup: 1, root: '/sg-scale' } } }));
    const r = evaluateFindings({ plan, cells: scaled }).find((x) => x.claim.id === 'ii')!;
    expect(r.verdict).toBe('refuted');
    expect(r.evidence).toEqual([`measured in the scale model (s = ${model.s.toPrecision(3)})`]);
    expect(r.caveats[0]).toMatch(/^measured in the scale model \(s = 0\.\d+\); what does not scale: fixed latencies/);
  });

  it('a part whose sides ran on different testbeds is inconclusive, not compared', () => {
    const model = scaleModelFor(configurationsOf(['naked-mon', 'mon-x2']), 1);
    const scaledX2 = withMeta({ x: cells['mon-x2@paper'] }, () => ({ placement: { state: 'off', why: 'off', clientCpus: [], sutCpus: [], testbed: { testbed: 'scaled', model, cgroup: 1, root: '/sg-scale' } } })).x;
    const r = evaluateFindings({ plan, cells: { ...cells, 'mon-x2@paper': scaledX2 } }, CLAIMS.filter((c) => c.id === 'ii'))[0];
    expect(r.parts[0].verdict).toMatchObject({ verdict: 'inconclusive', settle: 'runs of both sides on one testbed' });
    expect(r.parts[0].verdict.why).toMatch(/different testbeds \(naked-mon: measured unscaled .*; mon-x2: measured in the scale model/);
  });

  it('(i) reproduced: MSA-1-1 answers faster (Apdex above) and fails less (EFR below) than Naked MON', () => {
    const r = finding('i');
    expect(r.verdict).toBe('reproduced');
    expect(r.parts.map((p) => p.difference!.diff)).toEqual([expect.closeTo(0.2, 6), expect.closeTo(-0.2, 6)]);
    expect(r.keyFigure).toMatch(/^apdex at paper: msa-1-1 − naked-mon = 0\.200 \[0\.\d{3}, 0\.\d{3}\], Cliff's δ 1\.00$/);
  });


  it('(v) reproduced: MSA spends more CPU per iteration', () => {
    expect(finding('v').verdict).toBe('reproduced');
    expect(finding('v').parts[0].difference!.diff).toBeCloseTo(3 / 9, 6);
  });

  it('(vii) energy from the harness estimate: more for MSA-1-1 (reproduced), not less for replicated MSA (refuted)', () => {
    const r = finding('vii');
    expect(r.parts.map((p) => p.verdict.verdict)).toEqual(['reproduced', 'refuted']);
    expect(r.parts[0].difference!.diff).toBeCloseTo(0.02, 6);
    // The summary shows the part that decides the verdict: the refuted one, not the first.
    expect(r.keyFigure).toMatch(/^energyWh at 1x: msa-1-2 − mon-x2 = /);
  });

  it('(iv) inconclusive: it needs a cell --quick does not run, and says how to settle it', () => {
    const r = finding('iv');
    expect(r.verdict).toBe('inconclusive');
    expect(r.parts[0].verdict).toEqual({ verdict: 'inconclusive', why: 'msa-gateway-replicated at paper is not run in --quick mode', settle: 'run the full protocol (npm run findings), which runs msa-gateway-replicated at paper' });
    expect(r.keyFigure).toBe('no figure (cells not run)');
  });

  it('(iii) refuted by its second part although its first is inconclusive (CPUs to spare)', () => {
    const r = roomyFinding('iii');
    expect(r.parts.map((p) => p.verdict.verdict)).toEqual(['inconclusive', 'refuted']);
    expect(r.verdict).toBe('refuted');
  });

  it('RQ2 inconclusive: a noisy difference, with the runs that would settle it (CPUs to spare)', () => {
    const p = roomyFinding('RQ2').parts[0];
    expect(p.verdict.verdict).toBe('inconclusive');
    expect(p.verdict.why).toMatch(/includes 0/);
    expect(p.verdict.settle).toMatch(/^about \d+ valid runs per side at the observed spread .*; now 3 and 3$/);
  });

  it('separates architecture from the blocking grader (2 × 2 interaction)', () => {
    const r = finding('i');
    expect(r.design!.architectureBlocking!.diff).toBeCloseTo(-800, 6);
    expect(r.design!.architectureAsync!.diff).toBeCloseTo(-100, 6);
    expect(r.design!.interaction!.value).toBeCloseTo(700, 6);
    expect(r.design!.interaction!.significant).toBe(true);
    expect(r.explanation[0]).toMatch(/^2 × 2 \(p95\): MSA − monolith = -800 ms with the blocking grader, -100 ms with async graders on both sides; the blocking grader's share \(interaction\) = -700 ms/);
  });

  it('explains with per-process CPU and says when traces are missing; flags the energy estimate and the crowded machine', () => {
    expect(finding('v').explanation.some((e) => /^naked-mon at 0.5x: CPU per run postgres 10.0 s, sg-monolith-0 30.0 s|^naked-mon at 0.5x: CPU per run sg-monolith-0 30.0 s/.test(e))).toBe(true);
    expect(finding('v').explanation.join('\n')).toMatch(/naked-mon at 0.5x: .*no trace breakdown/);
    expect(finding('v').explanation.join('\n')).toMatch(/msa-1-1 at 0.5x: .*critical-path shares of the SPS latency: p50 100 ms: exercise 60%, database 30%, gateway 10%; p99 2000 ms: grading.process 65%, broker.queue_wait 24%, broker.consume 10% \(exemplar trace 4bf92f3577b34da6a3ce929d0e0e4736\) \(10 traces\)/);
    expect(finding('vii').caveats.join('\n')).toMatch(/energy is the harness ESTIMATE/);
    expect(finding('vi').caveats.join('\n')).toMatch(/this machine has 2 cores: msa-1-2 run more app processes than that/);
    expect(finding('ii').caveats).toEqual([]);
  });

  it("counts the system under test's CPUs, not the machine's, when the client was placed apart", () => {
    const placed = (key: string) => {
      const c = cells[key];
      const meta = { ...c.result.aggregated.meta, placement: { state: 'on' as const, why: 'default for findings', clientCpus: [1], sutCpus: [0], cgroup: 1 as const } };
      return { ...c, result: { ...c.result, aggregated: { ...c.result.aggregated, meta } } };
    };
    const [vi] = evaluateFindings({ plan, cells: { ...cells, 'mon-x2@1x': placed('mon-x2@1x'), 'msa-1-2@1x': placed('msa-1-2@1x') } }).filter((r) => r.claim.id === 'vi');
    expect(vi.caveats.join('\n')).toMatch(/the system under test has 1 CPU \(placement; the client has its own\): mon-x2, msa-1-2 run more app processes than that/);
  });

  it('warns when the tests compared ran different protocols', () => {
    const x2 = cells['mon-x2@paper'];
    const other = { ...x2, result: { ...x2.result, aggregated: { ...x2.result.aggregated, meta: { ...x2.result.aggregated.meta, profile: { ...x2.result.aggregated.meta.profile, peak: 20 } } } } };
    const [ii] = evaluateFindings({ plan, cells: { ...cells, 'mon-x2@paper': other } }).filter((r) => r.claim.id === 'ii');
    expect(ii.caveats).toEqual(['the runs compared ran different protocols (naked-mon: small peak 6/s 30+60 s; mon-x2: small peak 20/s 30+60 s): their differences mix protocol and configuration']);
  });

  it('writes findings.md and .html with the one-screen summary first, and the 2 × 2 effects as compare pages', () => {
    const dir = join(root, 'findings', '2026-11-25');
    const out = evaluateCells(plan, cells, dir, root);
    expect(out.files.map((f) => f.slice(dir.length + 1))).toEqual(['findings.md', 'findings.html', 'findings.json']);
    expect(existsSync(join(dir, 'compare', 'naked-mon-vs-naked-mon-async', 'compare.html'))).toBe(true);
    expect(out.markdown).toContain('- [grader execution in the monolith: naked-mon vs naked-mon-async](compare/naked-mon-vs-naked-mon-async/compare.html)');
    const md = out.markdown;
    const firstH2 = md.indexOf('## ');
    expect(md.slice(firstH2, firstH2 + 10)).toBe('## Summary');
    expect(md).toMatch(/\| \(i\) MSA outperforms the monolith, nothing replicated \| \*\*reproduced\*\* \| apdex at paper: msa-1-1 − naked-mon = 0\.200 .* \| \[naked-mon\]\(\.\.\/\.\.\/20261125T030000Z-naked-mon-small\/\), \[msa-1-1\]/);
    expect(md).toContain('> when no app component is replicated, MSA outperforms the monolithic architecture');
    const html = readFileSync(join(dir, 'findings.html'), 'utf8');
    expect(html).toContain('<tr class="not-testable"><td>(ii) Replicating the whole monolith helps</td>');
    expect(html).toContain('<a href="../../20261125T030000Z-naked-mon-small/">naked-mon</a>');
  });
});
