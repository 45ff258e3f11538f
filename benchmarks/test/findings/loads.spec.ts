import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measuredCapacity, meetsSlo, nextPaperProbe, paperResult, peakOf, sustainableRate, type PaperProbe, type SloStep } from '../../src/findings/loads';

const step = (peak: number, spsEfr: number, spsP95Ms: number, valid = true): SloStep => ({ peak, valid, spsEfr, spsP95Ms });

describe('loads from measured capacity', () => {
  it('the sustainable rate is the highest step within the SLO (SPS p95 ≤ 2 s, 0 KO) before the first that is not', () => {
    expect(sustainableRate({ steps: [step(4, 0, 300), step(8, 0, 1900), step(12, 0, 2100), step(16, 0, 500)] })).toBe(8);
    expect(sustainableRate({ steps: [step(4, 0, 300), step(8, 0.01, 900)] })).toBe(4);
    expect(sustainableRate({ steps: [step(4, 0, 300, false)] })).toBeNull();
    expect(meetsSlo(step(8, 0, 2000))).toBe(true);
  });

  it('levels are whole it/s multiples of the rate; the paper level needs the searched multiple', () => {
    expect(['0.5x', '1x', '1.5x', '2x'].map((l) => peakOf(l as never, 9, null))).toEqual([5, 9, 14, 18]);
    expect(peakOf('paper', 9, null)).toBeNull();
    expect(peakOf('paper', 9, 3)).toBe(27);
    expect(peakOf('0.5x', 1, null)).toBe(1);
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
    expect(paperResult([{ multiple: 2, peak: 16, efr: null, runId: 'r0' }]).multiple).toBeNull();
  });

  it("reads naked-mon's newest calibration: its stated sustainable rate, else the SLO over its steps; a -kdfN file never", () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-capacity-'));
    try {
      expect(measuredCapacity(dir)).toBeNull();
      writeFileSync(join(dir, '20261126T100000Z-naked-mon-calibration.json'), JSON.stringify({ steps: [step(4, 0, 300), step(8, 0, 2500)] }));
      expect(measuredCapacity(dir)).toEqual({ rate: 4, source: '20261126T100000Z-naked-mon-calibration.json' });
      writeFileSync(join(dir, '20261127T100000Z-naked-mon-calibration.json'), JSON.stringify({ steps: [step(4, 0, 300)], sustainableRate: 6 }));
      writeFileSync(join(dir, '20261128T100000Z-naked-mon-calibration-kdf1.json'), JSON.stringify({ steps: [], sustainableRate: 50 }));
      expect(measuredCapacity(dir)).toEqual({ rate: 6, source: '20261127T100000Z-naked-mon-calibration.json' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
