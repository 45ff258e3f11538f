// meta.json of a test (`bench run`) is composed, not mutated: run-test/write.ts lays each step's
// facts over the plan's meta. It must read as the file always has (the same keys in the same order,
// the placement the live session's record with the scale model's as its testbed) and leave every
// step's output as it found it.
import type { PlacementSession } from '../src/placement/session';
import type { QuotaSession } from '../src/placement/quota-session';
import type { Placed, TestPlan } from '../src/run-test/steps';
import { metaOf } from '../src/run-test/write';
import type { TestMeta } from '../src/types';

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

const placementPlan = { state: 'on' as const, why: '--placement on', clientCpus: [1], sutCpus: [0], cgroup: 2 as const, testbed: { testbed: 'scaled', s: 0.5 } as never };
const planMeta = (): TestMeta =>
  ({
    runId: 'r1',
    variant: 'naked-mon',
    profileName: 'smoke',
    profile: { runs: 1 },
    topology: 'monolith',
    replicas: {},
    tracing: false,
    kdfCost: 14,
    entry: '',
    startedAt: 'planned-at',
    machine: { cores: 2 },
    apdexTMs: 1500,
    baseline: null,
    powerModel: { idleWPerCpu: 1, maxWPerCpu: 2 },
    placement: structuredClone(placementPlan),
  }) as unknown as TestMeta;
const plan = (): TestPlan => deepFreeze({ meta: planMeta(), placementPlan: structuredClone(placementPlan) } as unknown as TestPlan);

// The sessions own their records: the quota record grows run by run (quotas, throttling).
const quotaRecord = { testbed: 'scaled', s: 0.5, quotas: { web: { quotaUs: 50_000, periodUs: 100_000 } }, throttling: [] };
const sessionRecord = { ...placementPlan, staleReleased: [], sutProcesses: 4, clientProcesses: 1 };
const placed: Placed = { placement: { record: sessionRecord } as unknown as PlacementSession, quota: { record: quotaRecord } as unknown as QuotaSession };

describe('meta.json composed from the steps (run-test/write.ts metaOf)', () => {
  it('reads as the steps writing into one meta object did, key for key and in order', () => {
    // What the old runner's sequence of writes into one object left: entry (launch), the testbed
    // made the quota record, the session's record as placement, warmUp, startedAt and cpuAccounting
    // (sampling), endedAt.
    const old = planMeta() as TestMeta & Record<string, unknown>;
    old.entry = 'http://127.0.0.1:8080';
    (old.placement as { testbed: unknown }).testbed = quotaRecord;
    old.placement = { ...(old.placement as object), staleReleased: [], sutProcesses: 4, clientProcesses: 1 } as never;
    old.warmUp = { skipped: false };
    old.startedAt = 'measured-from';
    old.cpuAccounting = 'proc';
    old.machineCpuAccounting = 'cgroup v1 root (cpuacct.usage, ns)';
    old.endedAt = 'ended-at';

    const composed = metaOf(plan(), {
      entry: 'http://127.0.0.1:8080',
      placed,
      warmUp: { skipped: false },
      sampling: { startedAt: 'measured-from', cpuAccounting: 'proc', machineCpuAccounting: 'cgroup v1 root (cpuacct.usage, ns)' },
      endedAt: 'ended-at',
    });
    expect(JSON.stringify(composed, null, 2)).toBe(JSON.stringify(old, null, 2));
  });

  it('before any step, is the plan\'s meta as planned', () => {
    expect(JSON.stringify(metaOf(plan(), {}))).toBe(JSON.stringify(planMeta()));
  });

  it('follows the live quota record (a run\'s throttling reaches the file) and changes no step\'s output', () => {
    const frozenPlan = plan();
    const live = { placement: null, quota: { record: { ...quotaRecord, throttling: [] as unknown[] } } as unknown as QuotaSession };
    expect(metaOf(frozenPlan, { placed: live }).placement!.testbed).toEqual({ ...quotaRecord, throttling: [] });
    (live.quota!.record.throttling as unknown[]).push({ run: 1, byGroup: {} });
    expect(metaOf(frozenPlan, { placed: live }).placement!.testbed).toMatchObject({ throttling: [{ run: 1 }] });
    // The plan is deeply frozen: a composition that wrote into it would have thrown.
    expect(frozenPlan.meta.placement!.testbed).toEqual({ testbed: 'scaled', s: 0.5 });
    expect(sessionRecord.testbed).toEqual({ testbed: 'scaled', s: 0.5 });
  });
});
