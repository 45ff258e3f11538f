/** Where a new paper-equivalent search starts: what the newest search at the same rate and client timeout says about the target. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PaperProbe } from '../../src/findings/loads';
import { previousPaperStart, RECORD_FILE } from '../../src/findings/record';
import { DEFAULT_PAPER_START, scaledPaperStart } from '../../src/findings/plan';
import type { Testbed } from '../../src/placement/testbed';

describe('previousPaperStart', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'sg-findings-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const probe = (multiple: number, efr: number, valid = true): PaperProbe => ({ multiple, peak: multiple * 8, efr, valid, runId: `r${multiple}` });
  const record = (dir: string, r: { startedAt: string; rate: number; multiple: number | null; efr?: number; probes?: PaperProbe[]; clientTimeoutS?: number; testbed?: Testbed }): void => {
    mkdirSync(join(root, dir));
    const paper = { multiple: r.multiple, efr: r.efr ?? 0.6, probes: r.probes ?? [] };
    writeFileSync(join(root, dir, RECORD_FILE), JSON.stringify({ startedAt: r.startedAt, capacity: { rate: r.rate }, paper, ...(r.clientTimeoutS ? { clientTimeoutS: r.clientTimeoutS } : {}), ...(r.testbed ? { testbed: r.testbed } : {}) }));
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

  it('a search guides only searches on the same testbed (a record without one is unscaled)', () => {
    record('unscaled', { startedAt: '2026-12-06T09:00:00Z', rate: 8, multiple: 10, efr: 0.6, clientTimeoutS: 20 });
    record('scaled', { startedAt: '2026-12-06T08:00:00Z', rate: 8, multiple: 2, efr: 0.6, clientTimeoutS: 20, testbed: 'scaled' });
    expect(previousPaperStart({ rate: 8, timeoutS: 20 }, root)?.multiple).toBe(10);
    expect(previousPaperStart({ rate: 8, timeoutS: 20, testbed: 'unscaled' }, root)?.multiple).toBe(10);
    expect(previousPaperStart({ rate: 8, timeoutS: 20, testbed: 'scaled' }, root)?.multiple).toBe(2);
  });
});

describe('scaledPaperStart', () => {
  it("scales the unscaled start by the monolith's CPU in the model (one container's s over the system's CPUs), to two significant digits", () => {
    // quick on this machine: 10× unscaled, s = 0.2 (1 CPU / 5 containers of mon-x2) → 2×, where 10× and 5× ran at EFR 95-100 %.
    expect(scaledPaperStart(DEFAULT_PAPER_START.quick, { s: 0.2, sutCpus: 1 }).multiple).toBe(2);
    expect(scaledPaperStart({ multiple: 16, source: 'x' }, { s: 1 / 14, sutCpus: 1 }).multiple).toBe(1.1);
    expect(scaledPaperStart({ multiple: 16, source: 'x' }, { s: 0.5, sutCpus: 2 }).multiple).toBe(4);
    // The reproduction's model (28 containers, s = 1/24): 16× → 0.67×, not rounded away to 0.5× or 1×; says where it came from.
    expect(scaledPaperStart({ multiple: 16, source: 'x' }, { s: 1 / 24, sutCpus: 1 }).multiple).toBe(0.67);
    const low = scaledPaperStart({ multiple: 2, source: 'the first probe' }, { s: 0.05, sutCpus: 1 });
    expect(low.multiple).toBe(0.1);
    expect(low.source).toBe("2× unscaled (the first probe) × the monolith's share in the scale model, s 0.0500 of 1 CPU");
  });
});
