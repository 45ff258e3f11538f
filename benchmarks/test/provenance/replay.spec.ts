import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareSides } from '../../src/compare/compare';
import { loadSide } from '../../src/compare/sides';
import type { Profile } from '../../src/profiles';
import { replayAgreement } from '../../src/provenance/agreement';
import { planReplay, replayPlanText, type Now } from '../../src/provenance/replay-plan';
import { runRecord, writeTestFolder } from '../compare/run-fixtures';
import { ENV, MACHINE, manifest, SMALL } from './fixtures';

const now = (over: Partial<Now> = {}): Now => ({ at: new Date('2026-11-25T03:00:00.000Z'), resultsRoot: '/r', profile: SMALL, env: ENV, machine: MACHINE, ...over });

describe('replay planning (nothing is run)', () => {
  it('runs the recorded spec from a file and the recorded protocol as explicit overrides', () => {
    const p = planReplay(manifest({ profile: { ...SMALL, peak: 12, runs: 2, betweenRunsS: 4 }, overrides: { peak: 12, runs: 2, pauseS: 4 } }), now());
    expect(p.original).toBe('20261125T003150Z-naked-mon-small');
    expect(p.specFile).toBe('/r/replays/20261125T030000Z-naked-mon-small-replay.spec.yaml');
    expect(p.spec).toMatchObject({ name: 'naked-mon', grader: { exec: 'blocking' } });
    expect(p.options).toEqual({ variant: p.specFile, profile: 'small', runId: '20261125T030000Z-naked-mon-small-replay', runs: 2, pauseS: 4, peak: 12, rampS: 20, holdS: 40, connectionReuse: false, arrivals: 'even' });
    expect(p.drift).toEqual([]);
  });

  it('a suite replays by its profile and recorded overrides; a soak keeps its resolved rate', () => {
    const soak: Profile = { ...SMALL, peak: 4.2, rampS: 0, holdS: 300, runs: 1, betweenRunsS: 0, suite: { kind: 'soak', soakS: 300, transitionS: 5, windowS: 10, warmupS: 30, saturationShare: 0.7, maxMemoryGrowth: 0.1, maxP95Drift: 0.1, sloKoShare: 0.01, sloP95Ms: 10000, brokenOkShare: 0.1, burstStep: 1, tolerance: 0.1 } };
    const p = planReplay(manifest({ profile: soak, profileName: 'soak-scaled' }), now({ profile: soak }));
    expect(p.options).toEqual({ variant: p.specFile, profile: 'soak-scaled', runId: '20261125T030000Z-naked-mon-soak-scaled-replay', runs: 1, pauseS: 0, saturation: 4.2 });
  });

  it('lists the drift it cannot undo: commit, dirty trees, profile fields, versions, machine', () => {
    const m = manifest({ env: { ...ENV, project: { commit: 'aaa', dirty: true, changedFiles: 3 } } });
    const p = planReplay(m, now({ profile: { ...SMALL, students: 400 }, machine: { ...MACHINE, cores: 4, k6: 'k6 v1.9.0' }, env: { ...ENV, versions: { ...ENV.versions, python: '3.12.1' } } }));
    expect(p.drift).toEqual([
      'profile students: 200 then, 400 now (not overridable)',
      `project commit: "aaa" then, "${ENV.project.commit}" now`,
      'the original ran from a tree with uncommitted changes: its code is not exactly recoverable',
      'python: "3.11.7" then, "3.12.1" now',
      'k6: "k6 v1.8.1" then, "k6 v1.9.0" now',
      'cores: 2 then, 4 now',
    ]);
    const unrecorded = manifest({ env: { project: { commit: null, dirty: null, changedFiles: null }, versions: { python: null, servers: {}, pinnedTools: {} } } });
    expect(planReplay(unrecorded, now()).drift).toEqual([]);
    expect(planReplay(m, now({ profile: null })).drift[0]).toBe('profile "small" no longer exists in k6/profiles.json');
  });

  it('prints the bench run it would do and the compare after it', () => {
    const text = replayPlanText(planReplay(manifest(), now()));
    expect(text).toContain('bench run --variant /r/replays/20261125T030000Z-naked-mon-small-replay.spec.yaml --profile small --run-id 20261125T030000Z-naked-mon-small-replay --runs 3 --pause-s 10 --peak 9 --ramp-s 20 --hold-s 40 --connection-reuse off --arrivals even');
    expect(text).toContain('then: bench compare 20261125T003150Z-naked-mon-small 20261125T030000Z-naked-mon-small-replay');
    expect(text).toContain('no drift');
  });
});

describe('replay agreement', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'sg-replay-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const NOISE = [0, 7, -5];
  const test = (id: string, shift: number, n = 3) => {
    writeTestFolder(root, id, 'naked-mon', NOISE.slice(0, n).map((e, i) => runRecord(i + 1, { p50: 100 + e + shift, sps: { p50: 900 + 10 * e } })));
    return loadSide(join(root, id));
  };

  it('agrees when no headline interval excludes 0', () => {
    expect(replayAgreement(compareSides(test('a', 0), test('b', 0))).verdict).toBe('agrees');
  });

  it('disagrees, naming the metric, when one does', () => {
    const a = replayAgreement(compareSides(test('a', 0), test('b', 50)));
    expect(a.verdict).toBe('disagrees');
    expect(a.differing).toEqual(['all/p50']);
  });

  it('is inconclusive with a single run on a side', () => {
    const a = replayAgreement(compareSides(test('a', 0, 1), test('b', 0)));
    expect(a.verdict).toBe('inconclusive');
    expect(a.untestable).toContain('sps/p50');
  });
});
