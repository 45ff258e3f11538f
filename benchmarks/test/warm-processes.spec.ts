import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VariantStatus } from '../src/stack';
import { readWarmRecord, recordWarm, WARM_FOR_MS, warmedBy } from '../src/warm-processes';

const T0 = 1_800_000_000_000;

function status(over: Partial<{ pid: number; restarts: number; state: string; variant: string }> = {}): VariantStatus {
  return {
    variant: over.variant ?? 'msa-1-2',
    entry: 'http://127.0.0.1:3100',
    processes: [
      { name: 'sg-gateway-0', role: 'gateway', pid: 100, status: 'online', restarts: 0 },
      { name: 'sg-exercise-0', role: 'exercise', pid: over.pid ?? 101, status: over.state ?? 'online', restarts: over.restarts ?? 0 },
    ],
    servers: [],
  };
}

describe('warm processes: a warm-up is skipped only for the very processes that served scenario R moments before', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'sg-warm-')), 'bench-warm.json');

  beforeEach(() => recordWarm(status(), 'run-a', file, T0));

  it('the same processes within the bound are warm, and the record names the run that warmed them', () => {
    expect(warmedBy(status(), readWarmRecord(file), T0 + WARM_FOR_MS)).toMatchObject({ runId: 'run-a', atMs: T0 });
  });

  it('a restarted process (new pid, or a restart counted by the process manager) is cold', () => {
    expect(warmedBy(status({ pid: 202 }), readWarmRecord(file), T0 + 1000)).toBeNull();
    expect(warmedBy(status({ restarts: 1 }), readWarmRecord(file), T0 + 1000)).toBeNull();
  });

  it('another variant, a process not online, a stale or missing record: warm up', () => {
    expect(warmedBy(status({ variant: 'msa-2-2' }), readWarmRecord(file), T0 + 1000)).toBeNull();
    expect(warmedBy(status({ state: 'errored' }), readWarmRecord(file), T0 + 1000)).toBeNull();
    expect(warmedBy(status(), readWarmRecord(file), T0 + WARM_FOR_MS + 1)).toBeNull();
    expect(warmedBy(status(), null, T0 + 1000)).toBeNull();
  });

  it('a process that is not online is never recorded warm', () => {
    recordWarm(status({ state: 'stopped', pid: 303 }), 'run-b', file, T0 + 5000);
    expect(readWarmRecord(file)).toMatchObject({ runId: 'run-a' });
  });
});
