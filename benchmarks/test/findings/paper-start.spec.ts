/** Where a new paper-equivalent search starts: the newest finding at the same rate and client timeout. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { previousPaperStart, RECORD_FILE } from '../../src/findings/record';

describe('previousPaperStart', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'sg-findings-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const record = (dir: string, r: { startedAt: string; rate: number; multiple: number | null; efr?: number; clientTimeoutS?: number }): void => {
    mkdirSync(join(root, dir));
    writeFileSync(join(root, dir, RECORD_FILE), JSON.stringify({ startedAt: r.startedAt, capacity: { rate: r.rate }, paper: { multiple: r.multiple, efr: r.efr ?? 0.6 }, ...(r.clientTimeoutS ? { clientTimeoutS: r.clientTimeoutS } : {}) }));
  };

  it('takes the newest run (by start, not folder name) with the same rate and timeout that found a multiple near the paper\'s EFR', () => {
    record('b-old', { startedAt: '2026-11-26T10:00:00Z', rate: 8, multiple: 8 });
    record('a-new', { startedAt: '2026-11-27T10:00:00Z', rate: 8, multiple: 16, efr: 0.651 });
    record('c-none', { startedAt: '2026-11-28T10:00:00Z', rate: 8, multiple: null });
    record('d-other-rate', { startedAt: '2026-11-28T11:00:00Z', rate: 9, multiple: 4 });
    record('e-quick', { startedAt: '2026-11-28T12:00:00Z', rate: 8, multiple: 12, clientTimeoutS: 20 });
    record('f-far', { startedAt: '2026-11-28T13:00:00Z', rate: 8, multiple: 16, efr: 0.922, clientTimeoutS: 20 });
    expect(previousPaperStart({ rate: 8, timeoutS: 60 }, root)).toEqual({ multiple: 16, source: 'found by results/findings/a-new: EFR 65.1 %' });
    expect(previousPaperStart({ rate: 8, timeoutS: 20 }, root)?.multiple).toBe(12);
    expect(previousPaperStart({ rate: 10, timeoutS: 60 }, root)).toBeNull();
    expect(previousPaperStart({ rate: 8, timeoutS: 60 }, join(root, 'missing'))).toBeNull();
  });
});
