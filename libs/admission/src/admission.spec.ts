import { DomainError } from '@shellgrade/domain';
import { BoundedAdmission } from './admission';

/** A clock the test moves by hand. */
function clock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

function refusalOf(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('BoundedAdmission', () => {
  it('speaks of logins when it bounds password checks', () => {
    const gate = new BoundedAdmission({ maxInFlight: 1, fallbackRetryAfterS: 2, kind: 'login' });
    gate.enter();
    const refused = refusalOf(() => gate.enter());
    expect(refused.message).toBe('the server is busy: 1 logins are already being checked here. You are not logged in yet; try again in 2 s');
  });

  it('refuses a newcomer while its pressure names a reason, and admits again once it does not', () => {
    let behind: string | null = 'this server is running 180 ms behind';
    const gate = new BoundedAdmission({ maxInFlight: 16, fallbackRetryAfterS: 2, kind: 'login', pressure: () => behind });
    const refused = refusalOf(() => gate.enter());
    expect(refused).toMatchObject({ kind: 'unavailable', retryAfterSeconds: 2, details: { reason: 'overloaded', in_flight: 0 } });
    expect(refused.message).toBe('the server is busy: this server is running 180 ms behind. You are not logged in yet; try again in 2 s');
    behind = null;
    gate.enter();
    expect(gate.snapshot()).toMatchObject({ inside: 1, refused: 1 });
  });

  it('admits up to maxInFlight, refuses the next with 503 + Retry-After, and a released place is free again', () => {
    const gate = new BoundedAdmission({ maxInFlight: 2, fallbackRetryAfterS: 5 });
    const a = gate.enter();
    gate.enter();
    const refused = refusalOf(() => gate.enter());
    expect(refused).toMatchObject({ kind: 'unavailable', retryAfterSeconds: 5, details: { reason: 'overloaded', in_flight: 2 } });
    expect(refused.message).toMatch(/grader is busy.*not saved; submit it again in 5 s/);
    a.release();
    a.release(); // a second release of the same ticket frees nothing more
    expect(gate.snapshot().inside).toBe(1);
    gate.enter();
    expect(() => gate.enter()).toThrow(DomainError);
    expect(gate.snapshot().refused).toBe(2);
  });

  it('estimates the wait from the recent completion rate and refuses past maxWaitS, Retry-After = that wait', () => {
    const c = clock();
    const gate = new BoundedAdmission({ maxInFlight: 100, maxWaitS: 2, fallbackRetryAfterS: 5 }, c.now);
    // 11 submissions finish 100 ms apart: 10 completions per second.
    for (let i = 0; i < 11; i++) {
      gate.enter().release();
      if (i < 10) c.advance(100);
    }
    expect(gate.snapshot().completionsPerS).toBeCloseTo(10, 9);
    const inside = Array.from({ length: 20 }, () => gate.enter()); // 20 inside: 2 s ahead, still admitted
    expect(gate.snapshot().estimatedWaitS).toBeCloseTo(2, 9);
    gate.enter(); // 21 inside: 2.1 s
    const refused = refusalOf(() => gate.enter());
    expect(refused).toMatchObject({ retryAfterSeconds: 3, details: { in_flight: 21, estimated_wait_s: 2.1 } });
    inside.forEach((t) => t.release());
  });

  it('a process that stopped finishing work loses its rate: the estimate grows with the silence', () => {
    const c = clock();
    const gate = new BoundedAdmission({ maxInFlight: 100, maxWaitS: 10, fallbackRetryAfterS: 5 }, c.now);
    for (let i = 0; i < 11; i++) {
      gate.enter().release();
      c.advance(100);
    }
    Array.from({ length: 10 }, () => gate.enter());
    const before = gate.snapshot().estimatedWaitS!;
    c.advance(9_000);
    expect(gate.snapshot().estimatedWaitS!).toBeGreaterThan(before * 5);
    expect(() => gate.enter()).toThrow(/submit it again in/);
  });

  it('without a measured rate only the count bounds, and the refusal falls back to the configured Retry-After', () => {
    const gate = new BoundedAdmission({ maxInFlight: 1, maxWaitS: 0.001, fallbackRetryAfterS: 7 });
    gate.enter();
    expect(refusalOf(() => gate.enter())).toMatchObject({ retryAfterSeconds: 7, details: { estimated_wait_s: null } });
  });
});
