// Placement is recorded where a reader of a run looks: the manifest (the plan: on/off/unavailable
// and why) and the report's header; the CLI options make the request the plan reads.
import { buildManifest } from '../../src/provenance/manifest';
import { placementRequest } from '../../src/placement/options';
import type { PlacementPlan } from '../../src/placement/plan';
import { planReplay, replayPlanText } from '../../src/provenance/replay-plan';
import { ENV, MACHINE, SMALL, SPEC } from '../provenance/fixtures';

const input = { runId: 'r', startedAt: 't', variant: 'naked-mon', spec: SPEC, hasSource: false, profileName: 'stress', overrides: {}, profile: SMALL, machine: MACHINE, env: ENV };

describe('placement in the record of a run', () => {
  it('writes the plan into manifest.json, unavailable with its reason too; older manifests simply have none', () => {
    const on: PlacementPlan = { state: 'on', why: 'default for stress suites', clientCpus: [1], sutCpus: [0], cgroup: 1 };
    expect(buildManifest({ ...input, placement: on }).placement).toEqual(on);
    const unavailable: PlacementPlan = { state: 'unavailable', why: 'default for stress suites, but no usable cpuset: …', clientCpus: [], sutCpus: [] };
    expect(JSON.parse(JSON.stringify(buildManifest({ ...input, placement: unavailable }))).placement.state).toBe('unavailable');
    expect('placement' in buildManifest(input)).toBe(false);
  });

  it('turns the options into a request: none given leaves the default to the kind of test', () => {
    expect(placementRequest({})).toBeUndefined();
    expect(placementRequest({ clientCpus: '1', sutCpus: '0' })).toEqual({ mode: undefined, clientCpus: '1', sutCpus: '0' });
    expect(placementRequest({ placement: 'off' })).toEqual({ mode: 'off', clientCpus: undefined, sutCpus: undefined });
  });
});

describe('placement in a replay', () => {
  const now = { at: new Date('2026-11-26T22:00:00.000Z'), resultsRoot: '/r', profile: SMALL, env: ENV, machine: MACHINE };
  it('asks the same CPUs again, off when it was off, and on again when it was unavailable; nothing when the original recorded none', () => {
    const with_ = (placement?: PlacementPlan) => planReplay(buildManifest({ ...input, profileName: 'small', placement }), now);
    const on = with_({ state: 'on', why: 'x', clientCpus: [1], sutCpus: [0], cgroup: 1 });
    expect(on.options.placement).toEqual({ clientCpus: '1', sutCpus: '0' });
    expect(replayPlanText(on)).toMatch(/--client-cpus 1 --sut-cpus 0\n/);
    expect(with_({ state: 'off', why: 'x', clientCpus: [], sutCpus: [] }).options.placement).toEqual({ mode: 'off' });
    expect(with_({ state: 'unavailable', why: 'x', clientCpus: [], sutCpus: [] }).options.placement).toEqual({ mode: 'on' });
    expect('placement' in with_().options).toBe(false);
  });
});
