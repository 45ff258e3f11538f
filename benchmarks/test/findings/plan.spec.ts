import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadVariant } from '@shellgrade/variant';
import { CLAIMS } from '../../src/findings/claims';
import { estimateMinutes, findingsPlan, MSA_ASYNC, planText } from '../../src/findings/plan';
import { writeDerivedSpec } from '../../src/findings/run';

describe('findings plan (printable with --dry-run, nothing run)', () => {
  it('--quick runs the 2 × 2 and one replicated configuration per architecture, 3 shortened runs, within 25 min', () => {
    const p = findingsPlan('quick');
    expect(p.tests.map((t) => t.variant)).toEqual(['naked-mon', 'naked-mon-async', 'msa-1-1', 'msa-1-1-async', 'mon-x2', 'msa-1-2']);
    expect(p.protocol).toEqual({ profile: 'small', runs: 3, rampS: 10, holdS: 25, pauseS: 5 });
    expect(p.estimateMin).toBeLessThanOrEqual(25);
    expect(p.notRun).toEqual(['msa-gateway-replicated', 'msa-replicated-more']);
  });

  it('the full protocol runs every role, 10 runs per test as the paper', () => {
    const p = findingsPlan('full');
    expect(p.notRun).toEqual([]);
    expect(p.protocol.runs).toBe(10);
    expect(p.tests.map((t) => t.variant)).toEqual(expect.arrayContaining(['msa-1-4', 'msa-2-2-2']));
    expect(p.estimateMin).toBeGreaterThan(60);
  });

  it('the 2 × 2 fourth cell is msa-1-1 with an async grader, and every claim using the design lists it', () => {
    const t = findingsPlan('quick').tests.find((x) => x.variant === 'msa-1-1-async')!;
    expect(t.derived).toEqual(MSA_ASYNC);
    expect(t.usedBy).toEqual(CLAIMS.filter((c) => c.design || c.tests.some((x) => x.a === 'msa-async' || x.b === 'msa-async')).map((c) => c.id));
  });

  it('prints one bench run line per test and what it leaves out', () => {
    const text = planText(findingsPlan('quick'));
    expect(text.split('\n')[0]).toBe('findings (quick): 6 tests, profile small, 3 runs each (--ramp-s 10 --hold-s 25 --pause-s 5), ~24 min');
    expect(text).toContain('1. naked-mon — roles mon-blocking — for i, ii, v, vii, RQ1, RQ3: bench run --variant naked-mon --profile small --runs 3 --ramp-s 10 --hold-s 25 --pause-s 5');
    expect(text).toContain('4. msa-1-1-async (= msa-1-1 with {"grader":{"exec":"async"}})');
    expect(text).toContain('not run in this mode (claims needing them stay inconclusive): msa-gateway-replicated, msa-replicated-more');
  });

  it('estimates time from the protocol: setup plus runs × (ramp + hold + tail + pause)', () => {
    expect(estimateMinutes({ profile: 'small', runs: 2, rampS: 10, holdS: 20, pauseS: 0 }, 3)).toBe(Math.round((3 * (30 + 2 * 60)) / 60));
  });

  it('writes the derived cell as a valid resolved spec named after it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-spec-'));
    try {
      const spec = loadVariant(writeDerivedSpec(MSA_ASYNC, dir));
      expect(spec.name).toBe('msa-1-1-async');
      expect(spec.grader.exec).toBe('async');
      expect(spec.topology).toBe('msa');
      expect(spec.replicas).toEqual(loadVariant('msa-1-1').replicas);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
