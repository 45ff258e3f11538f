// The fault table plans a step on the running variant without touching it: which
// replica, which undo; a fault the variant has no target for says why; crashes of the fault's own
// target inside its window are marked injected, any other is not.
import { analyseFaultRun } from '../src/faults/analyse';
import { allFaults, FAULT_KINDS, faultKind, FaultNotApplicable, planFault } from '../src/faults/catalog';
import { faultRate } from '../src/faults/run-faults';
import type { VariantStatus } from '../src/stack';
import { restarted } from '../src/faults/undo';

const status: VariantStatus = {
  variant: 'msa-1-2',
  processes: [
    { name: 'sg-gateway-1', role: 'gateway', pid: 101 },
    { name: 'sg-exercise-1', role: 'exercise', pid: 201 },
    { name: 'sg-exercise-2', role: 'exercise', pid: 202 },
  ],
  servers: [{ name: 'postgres', pid: 301 }],
};
const t = { status, upTarget: 'msa-1-2' };

describe('fault table', () => {
  it('plans each kind with its target and undo', () => {
    expect(planFault('kill-one:exercise', t)).toMatchObject({ target: 'sg-exercise-1 (pid 201)', undo: { kind: 'await-restart', variant: 'msa-1-2', target: 'msa-1-2', names: ['sg-exercise-1'], killedPids: [201] } });
    expect(planFault('kill-all:exercise', t)).toMatchObject({ target: 'sg-exercise-1 (pid 201), sg-exercise-2 (pid 202)' });
    expect(planFault('sigstop-one:gateway', t)).toMatchObject({ target: 'sg-gateway-1 (pid 101)', undo: { kind: 'continue', pid: 101 } });
    expect(planFault('restart:postgres', t)).toMatchObject({ target: 'postgres', undo: { kind: 'servers-up', names: ['postgres'] } });
    expect(planFault('outage:postgres', t)).toMatchObject({ undo: { kind: 'servers-up', names: ['postgres'] } });
  });

  it('says why a fault does not apply, and refuses an unknown name', () => {
    expect(() => planFault('kill-one:monolith', t)).toThrow(FaultNotApplicable);
    expect(() => planFault('outage:rabbitmq', t)).toThrow(/does not use rabbitmq/);
    expect(() => planFault('melt:postgres', t)).toThrow(/unknown fault/);
    expect(() => planFault('kill-one', t)).toThrow(/unknown fault/);
  });

  it('the steady rate: --rate, else the share of the sustainable rate, at least 1 it/s', () => {
    expect(faultRate({ rate: 2.4, share: 0.6, variant: 'x' }, null)).toMatchObject({ rate: 2 });
    expect(faultRate({ share: 0.6, variant: 'x' }, { rate: 10, file: 'c.json' })).toMatchObject({ rate: 6 });
    expect(faultRate({ share: 0.6, saturation: 5, variant: 'x' }, null)).toMatchObject({ rate: 3 });
    expect(faultRate({ share: 0.1, saturation: 2, variant: 'x' }, null)).toMatchObject({ rate: 1 });
    expect(() => faultRate({ share: 0.6, variant: 'x' }, null)).toThrow(/no sustainable rate/);
  });

  it('a kill is undone when pm2 has the replica online under a new pid, or when another variant runs', () => {
    const undo = { kind: 'await-restart' as const, variant: 'msa-1-2', target: 'msa-1-2', names: ['sg-exercise-1'], killedPids: [201] };
    const line = (v: string, pid: number | null, st: string) => `> banner\n${JSON.stringify({ variant: v, processes: [{ name: 'sg-exercise-1', pid, status: st }] })}`;
    expect(restarted(undo, line('msa-1-2', 201, 'online'))).toBe('waiting');
    expect(restarted(undo, line('msa-1-2', 0, 'launching'))).toBe('waiting');
    expect(restarted(undo, line('msa-1-2', 207, 'launching'))).toBe('waiting');
    expect(restarted(undo, line('msa-1-2', 207, 'online'))).toBe('back');
    expect(restarted(undo, line('naked-mon', 207, 'online'))).toBe('not-ours');
    expect(restarted(undo, 'npm ERR!')).toBe('waiting');
  });

  it('a crash of the target inside the window is injected; another process, or later, is not', () => {
    const applied = { fault: 'kill-one:exercise', target: 'sg-exercise-1 (pid 201)', undo: 'variant up', injectedAtMs: 10_000, undoneAtMs: 15_000 };
    const crash = (process: string, atMs: number) => ({ process, kind: 'process' as const, pid: 1, atMs, at: '' });
    const r = analyseFaultRun({
      fault: applied.fault, variant: 'msa-1-2', runId: 'r', rate: 2, windows: { steadyS: 5, faultS: 5, recoveryS: 5, bucketS: 1 }, applied,
      requests: [], iterations: [], audit: null, valid: true, reasons: [],
      crashes: [crash('sg-exercise-1', 10_500), crash('sg-gateway-1', 11_000), crash('sg-exercise-1', 40_000), { ...crash('native server postgres', 12_000), kind: 'native-server' }],
    });
    expect(r.crashes.map((c) => c.injected)).toEqual([true, false, false, false]);
  });
});

describe('--faults all', () => {
  it('names every kind on each of its targets once, CPU starvation only on the grading side', () => {
    const all = allFaults();
    expect(new Set(all).size).toBe(all.length);
    for (const k of FAULT_KINDS) expect(all.some((f) => f.startsWith(`${k.kind}:`))).toBe(true);
    expect(all).toEqual(expect.arrayContaining(['kill-one:exercise', 'kill-all:gateway', 'sigstop-one:monolith', 'restart:rabbitmq', 'outage:minio', 'latency:redis', 'cpu-starve:exercise']));
    expect(all.filter((f) => f.startsWith('cpu-starve:')).sort()).toEqual(['cpu-starve:exercise', 'cpu-starve:monolith']);
    for (const f of all) expect(() => faultKind(f)).not.toThrow();
  });
});
