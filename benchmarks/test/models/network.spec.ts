// Variant spec → queueing network: stations, servers (replicas) and per-class demands.
import { loadVariant } from '@shellgrade/variant';
import type { Demands } from '../../src/models/demands';
import { networkOf, saturationBounds } from '../../src/models/network';

const demands: Demands = {
  schema: 'shellgrade.model-demands/1',
  source: 'hand-made',
  variant: 'msa-1-2',
  runs: [1],
  iterations: 100,
  components: {
    app: { session: 0.05, sps: 0.1 },
    gateway: { session: 0.008, sps: 0.002 },
    haproxy: { session: 0.0008, sps: 0.0002 },
    postgres: { session: 0.004, sps: 0.001 },
    broker: { session: 0, sps: 0.003 },
    loadgen: { session: 0.02, sps: 0.005 },
  },
  gradingCpuS: 0.08,
  notes: [],
};

const names = (n: ReturnType<typeof networkOf>) => n.stations.map((s) => `${s.name}×${s.servers}`);

describe('variant spec → queueing network', () => {
  it('naked-mon: one monolith server doing both classes, PostgreSQL on every core, no balancer', () => {
    const net = networkOf(loadVariant('naked-mon'), demands, 2);
    expect(names(net)).toEqual(['monolith×1', 'postgres×2']);
    expect(net.stations[0].demands).toEqual({ session: 0.05, sps: 0.1 });
    expect(net.outsideDemands.session + net.outsideDemands.sps).toBeCloseTo(0.025, 12);
  });

  it('naked-mon-async: the grading leaves the event loop for child processes, a station with the concurrency cap as servers', () => {
    const net = networkOf(loadVariant('naked-mon-async'), demands, 2);
    expect(names(net)).toEqual(['monolith×1', 'monolith-grader×8', 'postgres×2']);
    expect(net.stations[0].demands.sps).toBeCloseTo(0.02, 12);
    expect(net.stations[1].demands).toEqual({ session: 0, sps: 0.08 });
    // Without a grader baseline the whole SPS goes to the grader station, none is lost.
    const noBaseline = networkOf(loadVariant('naked-mon-async'), { ...demands, gradingCpuS: null }, 2);
    expect(noBaseline.stations.map((s) => s.demands.sps)).toEqual([0, 0.1, 0.001]);
    const brokered = networkOf(loadVariant('msa-rabbitmq-1-2'), { ...demands, components: { ...demands.components, app: { session: 0, sps: 0.1 } }, gradingCpuS: null }, 2);
    expect(brokered.unmeasured).toEqual(['leftover']);
  });

  it('mon-x4: four monolith servers behind HAProxy', () => {
    expect(names(networkOf(loadVariant('mon-x4'), demands, 2))).toEqual(['haproxy×1', 'monolith×4', 'postgres×2']);
  });

  it('msa-1-2: gateway, leftover (session only), two exercise servers (sps only), the internal balancer', () => {
    const net = networkOf(loadVariant('msa-1-2'), demands, 2);
    expect(names(net)).toEqual(['haproxy×1', 'gateway×1', 'leftover×1', 'exercise×2', 'postgres×2']);
    expect(net.stations.find((s) => s.name === 'leftover')!.demands).toEqual({ session: 0.05, sps: 0 });
    expect(net.stations.find((s) => s.name === 'exercise')!.demands).toEqual({ session: 0, sps: 0.1 });
  });

  it('msa-zygote-1-2 (gateway.engine haproxy): HAProxy is the gateway station, no Node gateway, nothing left unmeasured', () => {
    const net = networkOf(loadVariant('msa-zygote-1-2'), { ...demands, components: { ...demands.components, gateway: { session: 0, sps: 0 } } }, 2);
    expect(names(net).slice(0, 2)).toEqual(['haproxy×1', 'leftover×1']);
    expect(names(net)).not.toContain('gateway×1');
    expect(net.unmeasured).toEqual([]);
  });

  it('msa-rabbitmq-1-2: the broker is a station of the sps class; its async grader one station beside the loops, prefetch jobs per replica', () => {
    const net = networkOf(loadVariant('msa-rabbitmq-1-2'), demands, 2);
    expect(names(net)).toEqual(['haproxy×1', 'gateway×1', 'leftover×1', 'exercise×2', 'exercise-grader×2', 'broker×1', 'postgres×2']);
    expect(net.stations.find((s) => s.name === 'broker')!.demands).toEqual({ session: 0, sps: 0.003 });
  });

  it('says which stations the demands have no figure for instead of treating them as free', () => {
    const fromMsa11 = { ...demands, components: { ...demands.components, broker: { session: 0, sps: 0 } } };
    const net = networkOf(loadVariant('msa-rabbitmq-1-2'), fromMsa11, 2);
    expect(net.unmeasured).toEqual(['broker']);
    expect(names(net)).not.toContain('broker×1');
  });

  it('saturation bounds: servers / demand per station, and the shared cores against every demand', () => {
    const bounds = saturationBounds(networkOf(loadVariant('naked-mon'), demands, 2));
    // monolith 1 / 0.15 = 6.67 it/s; cpu 2 / (0.15 + 0.005 + 0.025) = 11.1; postgres 2 / 0.005 = 400.
    expect(bounds[0].station).toBe('monolith');
    expect(bounds[0].rate).toBeCloseTo(1 / 0.15, 9);
    expect(bounds[1].station).toBe('cpu');
    expect(bounds[1].rate).toBeCloseTo(2 / 0.18, 9);
    const msa = saturationBounds(networkOf(loadVariant('msa-1-2'), demands, 2));
    // exercise 2 / 0.1 = 20, leftover 1 / 0.05 = 20, cpu 2 / 0.191 = 10.5: the shared CPU limits first.
    expect(msa[0].station).toBe('cpu');
    expect(msa[0].rate).toBeCloseTo(2 / 0.191, 9);
  });
});
