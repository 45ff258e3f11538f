import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baselinePoints } from '../src/baseline';
import { energyWh, raplDomains } from '../src/energy';
import { schedAutogroup } from '../src/machine';
import { parseProcStat } from '../src/proc-times';
import { makeRunId } from '../src/run-test';

describe('parseProcStat', () => {
  it('reads the parent, utime+stime, reaped children times and resident pages, even with spaces and parentheses in comm', () => {
    const line = '4242 (node (sg) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 400 100 20 0 11 0 1000 100000 5000 18446744073709551615';
    expect(parseProcStat(line)).toEqual({ pid: 4242, ppid: 1, ownTicks: 300, reapedChildrenTicks: 500, rssPages: 5000 });
  });
});

describe('baselinePoints', () => {
  it('finds the gradings/s of each concurrency whatever the nesting', () => {
    const pts = baselinePoints({ machine: {}, results: [{ mode: 'async', concurrency: 1, gradingsPerSecond: 18.5 }, { mode: 'async', concurrency: 2, gradingsPerSecond: 33.1 }] });
    expect(pts).toEqual([
      { label: 'mode async, concurrency 1', gradingsPerS: 18.5, isolation: null },
      { label: 'mode async, concurrency 2', gradingsPerS: 33.1, isolation: null },
    ]);
  });
});

describe('energy', () => {
  it('is absent without powercap and converts µJ to Wh', () => {
    expect(raplDomains('/nonexistent/powercap')).toEqual([]);
    expect(energyWh(null, 5)).toBeNull();
    expect(energyWh(0, 3.6e9)).toBe(1);
  });
});

describe('makeRunId', () => {
  it('is sortable by time and names the variant, profile and tracing', () => {
    expect(makeRunId('mon-x2', 'small', 'on', new Date('2026-11-22T03:04:05.678Z'))).toBe('20261122T030405Z-mon-x2-small-tracing');
    expect(makeRunId('naked-mon', 'smoke', undefined, new Date('2026-11-22T03:04:05Z'))).toBe('20261122T030405Z-naked-mon-smoke');
    expect(makeRunId('naked-mon', 'small', undefined, new Date('2026-11-22T03:04:05Z'), 1)).toBe('20261122T030405Z-naked-mon-small-kdf1');
  });
});

describe('scheduler autogroup', () => {
  it('reads the sysctl as on/off and is absent where the kernel has none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-autogroup-'));
    writeFileSync(join(dir, 'on'), '1\n');
    writeFileSync(join(dir, 'off'), '0\n');
    expect(schedAutogroup(join(dir, 'on'))).toBe('on');
    expect(schedAutogroup(join(dir, 'off'))).toBe('off');
    expect(schedAutogroup(join(dir, 'missing'))).toBe('absent');
    rmSync(dir, { recursive: true });
  });
});
