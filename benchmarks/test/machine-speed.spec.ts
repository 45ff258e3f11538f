import { join } from 'node:path';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { compareSides } from '../src/compare/compare';
import { comparisonHtml, comparisonMarkdown } from '../src/compare/render';
import { loadSide } from '../src/compare/sides';
import { measureMachineSpeed, speedMismatch, speedText } from '../src/machine-speed';
import { runRecord, writeTestFolder } from './compare/run-fixtures';

describe('machine speed probe', () => {
  it('measures a scrypt hash and a process spawn, in positive milliseconds', () => {
    const s = measureMachineSpeed({ scrypt: 1, spawn: 3 });
    expect(s.scryptN14Ms).toBeGreaterThan(0);
    expect(s.spawnMs).toBeGreaterThan(0);
    expect(speedText(s)).toBe(`speed probe: scrypt 2^14 ${s.scryptN14Ms} ms, process spawn ${s.spawnMs} ms`);
  });

  it('calls two hosts different when either probe differs by more than 25 %, and says how', () => {
    const reference = { scryptN14Ms: 39, spawnMs: 1.2 };
    expect(speedMismatch(reference, { scryptN14Ms: 45, spawnMs: 1.4 })).toBeNull();
    expect(speedMismatch(reference, { scryptN14Ms: 60, spawnMs: 1.2 })).toMatch(/^the two sides ran on hosts of different speed \(scrypt 2\^14 39 vs 60 ms, process spawn 1.2 vs 1.2 ms\)/);
    expect(speedMismatch(reference, { scryptN14Ms: 39, spawnMs: 2.4 })).not.toBeNull();
    // Results written before the probe existed: nothing to judge by.
    expect(speedMismatch(reference, undefined)).toBeNull();
  });

  it('never calls two probes of one boot different hosts, however far apart their figures', () => {
    const boot = 'b4d21f0a-4dad-490e-ad57-d375eaa726b5';
    expect(speedMismatch({ scryptN14Ms: 69.1, spawnMs: 5.89, bootId: boot }, { scryptN14Ms: 41.7, spawnMs: 5.39, bootId: boot })).toBeNull();
    expect(speedMismatch({ scryptN14Ms: 69.1, spawnMs: 5.89, bootId: boot }, { scryptN14Ms: 41.7, spawnMs: 5.39, bootId: 'another-boot' })).not.toBeNull();
    expect(speedMismatch({ scryptN14Ms: 69.1, spawnMs: 5.89 }, { scryptN14Ms: 41.7, spawnMs: 5.39 })).not.toBeNull();
    expect(measureMachineSpeed({ scrypt: 1, spawn: 1 }).bootId).toBe(readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
  });
});

describe('bench compare across hosts', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'sg-speed-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** A test folder whose aggregated meta records the host's probe. */
  function sideOn(runId: string, speed: { scryptN14Ms: number; spawnMs: number }) {
    const dir = writeTestFolder(root, runId, 'naked-mon', [1, 2, 3].map((n) => runRecord(n, { p50: 100 + n })));
    const file = join(dir, 'aggregated.json');
    const aggregated = JSON.parse(readFileSync(file, 'utf8'));
    aggregated.meta.machine = { ...(aggregated.meta.machine ?? {}), speed };
    writeFileSync(file, JSON.stringify(aggregated));
    return loadSide(dir);
  }

  it('warns in the Markdown and the HTML when the sides ran on hosts of different speed, and only then', () => {
    const slow = compareSides(sideOn('a', { scryptN14Ms: 39, spawnMs: 1 }), sideOn('b', { scryptN14Ms: 60, spawnMs: 2 }));
    expect(comparisonMarkdown(slow)).toContain('> **Warning:** the two sides ran on hosts of different speed');
    expect(comparisonHtml(slow)).toContain('<p>Warning: the two sides ran on hosts of different speed');
    expect(comparisonHtml(slow)).toMatch(/<p>\d+ of \d+ differences are significant/);
    const same = compareSides(sideOn('c', { scryptN14Ms: 39, spawnMs: 1 }), sideOn('d', { scryptN14Ms: 40, spawnMs: 1 }));
    expect(same.hostWarning).toBeNull();
    expect(comparisonMarkdown(same)).not.toContain('Warning');
  });
});
