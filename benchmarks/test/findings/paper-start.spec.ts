/** Where a new paper-equivalent search starts: what the newest search at the same rate and client timeout says about the target. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PaperProbe } from '../../src/findings/loads';
import { previousPaperStart, RECORD_FILE } from '../../src/findings/record';

describe('previousPaperStart', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'sg-findings-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const probe = (multiple: number, efr: number, valid = true): PaperProbe => ({ multiple, peak: multiple * 8, efr, valid, runId: `r${multiple}` });
  const record = (dir: string, r: { startedAt: string; rate: number; multiple: number | null; efr?: number; probes?: PaperProbe[]; clientTimeoutS?: number }): void => {
    mkdirSync(join(root, dir));
    const paper = { multiple: r.multiple, efr: r.efr ?? 0.6, probes: r.probes ?? [] };
    writeFileSync(join(root, dir, RECORD_FILE), JSON.stringify({ startedAt: r.startedAt, capacity: { rate: r.rate }, paper, ...(r.clientTimeoutS ? { clientTimeoutS: r.clientTimeoutS } : {}) }));
  };

  it('takes the newest run (by start, not folder name) with the same rate and timeout that found a multiple near the paper EFR', () => {
    record('b-old', { startedAt: '2026-11-26T10:00:00Z', rate: 8, multiple: 8 });
    record('a-new', { startedAt: '2026-11-27T10:00:00Z', rate: 8, multiple: 16, efr: 0.651 });
    record('c-none', { startedAt: '2026-11-28T10:00:00Z', rate: 8, multiple: null });
    record('d-other-rate', { startedAt: '2026-11-28T11:00:00Z', rate: 9, multiple: 4 });
    record('e-quick', { startedAt: '2026-11-28T12:00:00Z', rate: 8, multiple: 12, clientTimeoutS: 20 });
    expect(previousPaperStart({ rate: 8, timeoutS: 60 }, root)).toEqual({ multiple: 16, source: 'found at EFR 65.1 % by results/findings/a-new' });
    expect(previousPaperStart({ rate: 8, timeoutS: 20 }, root)?.multiple).toBe(12);
    expect(previousPaperStart({ rate: 10, timeoutS: 60 }, root)).toBeNull();
    expect(previousPaperStart({ rate: 8, timeoutS: 60 }, join(root, 'missing'))).toBeNull();
  });

  it('a search that ran out of probes far from the target guides by interpolating its VALID probes either side, else not at all', () => {
    // The quick run of 2026-11-27: 12× at 88.1 %, 6× at 10.2 % (an INVALID 8× ignored).
    record('q', { startedAt: '2026-11-27T18:45:00Z', rate: 8, multiple: 12, efr: 0.881, clientTimeoutS: 20, probes: [probe(12, 0.881), probe(6, 0.102), probe(8, 0.9, false)] });
    expect(previousPaperStart({ rate: 8, timeoutS: 20 }, root)).toEqual({ multiple: 10, source: 'interpolated between 6× (EFR 10.2 %) and 12× (88.1 %) by results/findings/q' });
    record('r', { startedAt: '2026-11-27T19:00:00Z', rate: 8, multiple: 12, efr: 0.881, clientTimeoutS: 20, probes: [probe(12, 0.881)] });
    // The newest says nothing (one side only): the one before still guides.
    expect(previousPaperStart({ rate: 8, timeoutS: 20 }, root)?.multiple).toBe(10);
  });
});
