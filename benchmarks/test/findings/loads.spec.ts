import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arrivalRate, bisectionRate, bisectionResolution, measuredCapacity, meetsSlo, MIN_ARRIVAL_RATE, nextPaperProbe, paperProbeOf, paperResult, peakOf, searchPaperLoad, sustainableRate, type PaperProbe, type SloStep } from '../../src/findings/loads';

const step = (peak: number, spsEfr: number, spsP95Ms: number, valid = true): SloStep => ({ peak, valid, spsEfr, spsP95Ms });

describe('loads from measured capacity', () => {
  it('the sustainable rate is the highest step within the SLO (SPS p95 ≤ 2 s, 0 KO) before the first that is not', () => {
    expect(sustainableRate({ steps: [step(4, 0, 300), step(8, 0, 1900), step(12, 0, 2100), step(16, 0, 500)] })).toBe(8);
    expect(sustainableRate({ steps: [step(4, 0, 300), step(8, 0.01, 900)] })).toBe(4);
    expect(sustainableRate({ steps: [step(4, 0, 300, false)] })).toBeNull();
    expect(meetsSlo(step(8, 0, 2000))).toBe(true);
  });

  it('levels are multiples of the rate, in tenths of an it/s below 10 it/s and whole ones from 10; the paper level needs the searched multiple', () => {
    expect(['0.5x', '1x', '1.5x', '2x'].map((l) => peakOf(l as never, 9, null))).toEqual([4.5, 9, 14, 18]);
    // The scale model (s = 1/9 on one CPU): naked-mon sustains 1.5 it/s; in whole it/s 0.5× and 1× were both 1 or 2.
    expect(['0.5x', '1x', '1.5x', '2x'].map((l) => peakOf(l as never, 1.5, null))).toEqual([0.8, 1.5, 2.3, 3]);
    expect(peakOf('paper', 9, null)).toBeNull();
    expect(peakOf('paper', 9, 3)).toBe(27);
    expect(peakOf('0.5x', 0.1, null)).toBe(MIN_ARRIVAL_RATE);
  });

  it('an arrival rate comes in the steps k6 can hold: tenths below 10 it/s, whole from 10, at least 0.1', () => {
    expect([0.04, 0.25, 1.449, 1.45, 9.94, 9.95, 12.5, 127.6].map(arrivalRate)).toEqual([0.1, 0.3, 1.4, 1.5, 9.9, 10, 13, 128]);
  });

  it('a bisection probes the rate halfway in those steps, none when no rate lies strictly between, and stops at an eighth of the first failing rate (at most 1 it/s)', () => {
    expect([bisectionRate(8, 16), bisectionRate(1.3, 1.8), bisectionRate(12, 13), bisectionRate(1.4, 1.5), bisectionRate(0, 0.2)]).toEqual([12, 1.6, null, null, 0.1]);
    expect([bisectionResolution(16), bisectionResolution(32), bisectionResolution(4), bisectionResolution(1.8), bisectionResolution(0.4)]).toEqual([1, 1, 0.5, 0.225, 0.1]);
  });

  it('the paper-equivalent search doubles from 2× until EFR passes 61.5 %, then bisects, and stops within 5 points or at its budget', () => {
    const efrAt = (m: number): number => Math.min(1, Math.max(0, (m - 1) * 0.25)); // fabricated: 0 at 1×, 61.5 % at 3.46×
    const probes: PaperProbe[] = [];
    for (let m = nextPaperProbe(probes, 6); m !== null; m = nextPaperProbe(probes, 6)) probes.push({ multiple: m, peak: Math.round(m * 8), efr: efrAt(m), runId: `r${probes.length}` });
    expect(probes.map((p) => p.multiple)).toEqual([2, 4, 3, 3.5]);
    expect(paperResult(probes)).toMatchObject({ multiple: 3.5, efr: 0.625, target: 0.615 });
    expect(nextPaperProbe(probes.slice(0, 2), 2)).toBeNull();
  });

  it('a probe without an EFR (an INVALID run) does not stop the search', () => {
    expect(nextPaperProbe([{ multiple: 2, peak: 16, efr: null, runId: 'r0' }], 5)).toBe(4);
    expect(paperResult([{ multiple: 2, peak: 16, efr: null, runId: 'r0' }])).toMatchObject({ multiple: null, notFound: 'no VALID probe measured EFR in 1 probe (0 INVALID)' });
  });

  describe('INVALID probes steer the paper-equivalent search but never set the load', () => {
    /** A fabricated probe function: the run at `m` × gives `efr`, VALID or not. */
    type Probe = (m: number, i: number) => { efr: number | null; valid: boolean };
    /** The search as the findings run drives it: probe, record, ask for the next multiple. */
    function search(probe: Probe, maxProbes: number): PaperProbe[] {
      const probes: PaperProbe[] = [];
      for (let m = nextPaperProbe(probes, maxProbes); m !== null; m = nextPaperProbe(probes, maxProbes)) {
        probes.push({ multiple: m, peak: Math.round(m * 8), ...probe(m, probes.length), runId: `r${probes.length}` });
      }
      return probes;
    }
    const efrAt = (m: number): number => Math.min(1, Math.max(0, (m - 1) * 0.3)); // 2× 30 %, 3× 60 %, 4× 90 %

    it('(a) an INVALID first probe within tolerance does not stop the search: its multiple is probed again', () => {
      // 60 % at 2×, within 5 points of 61.5 %, but the first run is INVALID (its figure is only indicative).
      const probes = search((m, i) => ({ efr: Math.min(1, (m - 1) * 0.6), valid: i > 0 }), 5);
      expect(probes.map((p) => [p.multiple, p.valid])).toEqual([[2, false], [2, true]]);
      expect(paperResult(probes)).toMatchObject({ multiple: 2, efr: 0.6, runId: 'r1', notFound: null });
    });

    it("(a') an INVALID probe's EFR chooses the direction: below the target doubles, above it halves", () => {
      expect(nextPaperProbe([{ multiple: 2, peak: 16, efr: 0.3, valid: false, runId: 'r0' }], 5)).toBe(4);
      expect(nextPaperProbe([{ multiple: 2, peak: 16, efr: 0.9, valid: false, runId: 'r0' }], 5)).toBe(1);
      expect(nextPaperProbe([{ multiple: 2, peak: 16, efr: 0.3, valid: true, runId: 'r0' }, { multiple: 4, peak: 32, efr: 0.9, valid: false, runId: 'r1' }], 5)).toBe(3);
    });

    it("(b) an INVALID probe's multiple is never the answer, even the closest to 61.5 %", () => {
      // Every run at 3× is INVALID (say a foreign CPU load then): 2× and 4× are the VALID ones.
      const probes = search((m) => ({ efr: efrAt(m), valid: m !== 3 }), 5);
      expect(probes.map((p) => p.multiple)).toEqual([2, 4, 3, 3, 3]);
      expect(paperResult(probes)).toMatchObject({ multiple: 4, efr: expect.closeTo(0.9), runId: 'r1', notFound: null });
      // The same, and a VALID run at 3× at last: that one is the answer.
      const later = search((m, i) => ({ efr: efrAt(m), valid: m !== 3 || i === 3 }), 5);
      expect(later.map((p) => p.multiple)).toEqual([2, 4, 3, 3]);
      expect(paperResult(later)).toMatchObject({ multiple: 3, efr: expect.closeTo(0.6), runId: 'r3', notFound: null });
    });

    it('(c) no VALID probe within the budget: an explicit no-answer, not a number', () => {
      const probes = search((m) => ({ efr: efrAt(m), valid: false }), 3);
      expect(probes).toHaveLength(3);
      const r = paperResult(probes);
      expect(r).toMatchObject({ multiple: null, efr: null, runId: null });
      expect(r.notFound).toMatch(/^no VALID probe/);
      expect(peakOf('paper', 8, r.multiple)).toBeNull();
    });

    it('a VALID figure at a multiple overrides an INVALID one there: no endless re-probe of an INVALID near-miss', () => {
      const invalidNear = { multiple: 3, peak: 24, efr: 0.6, valid: false, runId: 'r2' };
      const base = [{ multiple: 2, peak: 16, efr: 0.3, valid: true, runId: 'r0' }, { multiple: 4, peak: 32, efr: 0.9, valid: true, runId: 'r1' }, invalidNear];
      expect(nextPaperProbe(base, 6)).toBe(3);
      expect(nextPaperProbe([...base, { multiple: 3, peak: 24, efr: 0.7, valid: true, runId: 'r3' }], 6)).toBe(2.5);
    });

    it('searchPaperLoad drives a probe function to the same answers, reporting after each probe', async () => {
      const seen: (number | null)[] = [];
      const probeFn = (valid: (m: number, i: number) => boolean) => {
        let i = 0;
        return async (m: number): Promise<PaperProbe> => ({ multiple: m, peak: Math.round(m * 8), efr: efrAt(m), valid: valid(m, i), runId: `r${i++}` });
      };
      const b = await searchPaperLoad(probeFn((m) => m !== 3), 5, (s) => seen.push(s.multiple), { rate: 8 });
      expect(b).toMatchObject({ multiple: 4, runId: 'r1', notFound: null });
      expect(seen).toEqual([2, 4, 4, 4, 4]);
      // Started where a previous run found the level (8×, EFR 100 % here): halves, then bisects.
      const started: number[] = [];
      const d = await searchPaperLoad(async (m, peak) => (started.push(m), { multiple: m, peak, efr: efrAt(m), valid: true, runId: `s${m}` }), 4, undefined, { first: 8, rate: 8 });
      expect(started).toEqual([8, 4, 2, 3]);
      expect(d.multiple).toBe(3);
      const c = await searchPaperLoad(probeFn(() => false), 3, undefined, { rate: 8 });
      expect(c).toMatchObject({ multiple: null, efr: null, runId: null, notFound: 'no VALID probe measured EFR in 3 probes (3 INVALID)' });
    });

    it('stops where the next multiple lands on a rate a VALID probe measured (nothing lies between two neighbours)', async () => {
      // EFR jumps past the target's band between 12 and 13 it/s (whole from 10): bisecting 1.5× and 1.625× of 8 it/s
      // gives 12.5 → 13 it/s, measured already. The search ends there instead of running it again.
      const efrOf = (peak: number): number => (peak <= 12 ? 0.5 : 0.7);
      const started: number[] = [];
      const s = await searchPaperLoad(async (m, peak) => (started.push(peak), { multiple: m, peak, efr: efrOf(peak), valid: true, runId: `p${peak}` }), 8, undefined, { first: 2, rate: 8 });
      expect(started).toEqual([16, 8, 12, 14, 13]);
      expect(s).toMatchObject({ efr: 0.7, runId: 'p16' });
      // An INVALID probe's rate is probed again: only a VALID figure there ends the search.
      const again: number[] = [];
      await searchPaperLoad(async (m, peak) => (again.push(peak), { multiple: m, peak, efr: efrOf(peak), valid: !(peak === 13 && again.length === 5), runId: `q${again.length}` }), 8, undefined, { first: 2, rate: 8 });
      expect(again).toEqual([16, 8, 12, 14, 13, 13]);
    });

    it("a probe from its test's aggregate: VALID → the hold-stage mean; INVALID → the run's own EFR, marked", () => {
      const agg = (validRuns: number, efrRun: number | null) => ({
        validRuns,
        paper: validRuns ? { 'stages.hold.efr_paper': { mean: 0.55 } } : {},
        runLines: [{ efr_paper: efrRun }],
        meta: { runId: 'run-x' },
      }) as unknown as Parameters<typeof paperProbeOf>[2];
      expect(paperProbeOf(3, 24, agg(1, 0.55))).toEqual({ multiple: 3, peak: 24, efr: 0.55, valid: true, runId: 'run-x' });
      expect(paperProbeOf(3, 24, agg(0, 0.6))).toEqual({ multiple: 3, peak: 24, efr: 0.6, valid: false, runId: 'run-x' });
      expect(paperProbeOf(3, 24, agg(0, null))).toEqual({ multiple: 3, peak: 24, efr: null, valid: false, runId: 'run-x' });
    });
  });

  it("reads naked-mon's newest calibration made with the same placement: its stated sustainable rate, else the SLO over its steps; a -kdfN file never", () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-capacity-'));
    const placed = { state: 'on', clientCpus: [1], sutCpus: [0] };
    const boot = { bootId: 'boot-1' };
    const read = (opts: { placed?: boolean } = {}) => measuredCapacity(dir, { ...opts, ...boot });
    try {
      expect(read()).toBeNull();
      writeFileSync(join(dir, '20261126T100000Z-naked-mon-calibration.json'), JSON.stringify({ steps: [step(4, 0, 300), step(8, 0, 2500)], placement: placed, ...boot }));
      expect(read()).toEqual({ rate: 4, source: '20261126T100000Z-naked-mon-calibration.json' });
      writeFileSync(join(dir, '20261127T100000Z-naked-mon-calibration.json'), JSON.stringify({ steps: [step(4, 0, 300)], sustainableRate: 6, placement: placed, ...boot }));
      writeFileSync(join(dir, '20261128T100000Z-naked-mon-calibration-kdf1.json'), JSON.stringify({ steps: [], sustainableRate: 50, placement: placed, ...boot }));
      expect(read()).toEqual({ rate: 6, source: '20261127T100000Z-naked-mon-calibration.json' });
      // Newer, but k6 shared the system's cores (or an older file that does not say): not the placed findings' capacity.
      writeFileSync(join(dir, '20261129T100000Z-naked-mon-calibration.json'), JSON.stringify({ steps: [], sustainableRate: 9, placement: { state: 'off', clientCpus: [], sutCpus: [] }, ...boot }));
      writeFileSync(join(dir, '20261130T100000Z-naked-mon-calibration.json'), JSON.stringify({ steps: [], sustainableRate: 11, ...boot }));
      expect(read()).toEqual({ rate: 6, source: '20261127T100000Z-naked-mon-calibration.json' });
      expect(read({ placed: false })).toEqual({ rate: 11, source: '20261130T100000Z-naked-mon-calibration.json' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads only a calibration made on this boot: results/ from another host of the same type (or a file that does not say) is not this host\'s capacity', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-capacity-boot-'));
    const placement = { state: 'on', clientCpus: [1], sutCpus: [0] };
    try {
      writeFileSync(join(dir, '20261126T100000Z-naked-mon-calibration.json'), JSON.stringify({ steps: [], sustainableRate: 6, placement, bootId: 'boot-1' }));
      writeFileSync(join(dir, '20261127T100000Z-naked-mon-calibration.json'), JSON.stringify({ steps: [], sustainableRate: 9, placement, bootId: 'boot-2' }));
      writeFileSync(join(dir, '20261128T100000Z-naked-mon-calibration.json'), JSON.stringify({ steps: [], sustainableRate: 12, placement }));
      expect(measuredCapacity(dir, { bootId: 'boot-1' })).toEqual({ rate: 6, source: '20261126T100000Z-naked-mon-calibration.json' });
      expect(measuredCapacity(dir, { bootId: 'boot-3' })).toBeNull();
      // Where the kernel gives no boot id, any calibration is this host's as far as anyone can tell.
      expect(measuredCapacity(dir, { bootId: null })).toEqual({ rate: 12, source: '20261128T100000Z-naked-mon-calibration.json' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
