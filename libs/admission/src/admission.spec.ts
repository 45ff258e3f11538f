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

  it('one tenant at its bound is refused while the class is admitted: a stuck student queues behind themselves', () => {
    const c = clock();
    const gate = new BoundedAdmission({ maxInFlight: 8, maxWaitS: 5, maxInFlightPerTenant: 2, fallbackRetryAfterS: 5 }, c.now);
    const stuck = [gate.enter('mallory'), gate.enter('mallory')];
    const refused = refusalOf(() => gate.enter('mallory'));
    expect(refused).toMatchObject({ kind: 'unavailable', details: { reason: 'tenant-busy', in_flight: 2 } });
    expect(refused.message).toBe('the grader is busy: 2 of your submissions are still being graded; wait for them first. Your submission was not saved; submit it again in 5 s');
    // Minutes pass with nothing finishing: the class is still admitted, every one of them.
    c.advance(120_000);
    for (let i = 0; i < 20; i++) {
      const honest = gate.enter(`student-${i}`);
      c.advance(200);
      honest.release();
    }
    expect(gate.snapshot()).toMatchObject({ inside: 2, refused: 1, limit: 8 });
    stuck[0].release();
    gate.enter('mallory'); // one of theirs finished: one more place of their own
  });

  it('slow work that leaves the gate mostly empty never shrinks the limit', () => {
    const c = clock();
    const gate = new BoundedAdmission({ maxInFlight: 8, maxWaitS: 5, maxInFlightPerTenant: 2, fallbackRetryAfterS: 5 }, c.now);
    // Endless scripts end at the grader's timeout, 10 s after they started, two at a time.
    for (let round = 0; round < 20; round++) {
      const two = [gate.enter('mallory'), gate.enter('mallory')];
      c.advance(10_000);
      two.forEach((t) => t.release());
    }
    expect(gate.snapshot()).toMatchObject({ limit: 8, medianLatencyS: 10 });
    const class_ = Array.from({ length: 8 }, (_, i) => gate.enter(`student-${i}`));
    expect(gate.snapshot().inside).toBe(8);
    class_.forEach((t) => t.release());
  });

  it('shrinks its limit while a busy gate runs slower than maxWaitS, and grows it back once work is fast', () => {
    const c = clock();
    const gate = new BoundedAdmission({ maxInFlight: 20, maxWaitS: 2, fallbackRetryAfterS: 5 }, c.now);
    // Overload: 20 inside, each taking 4 s.
    const round = (latencyMs: number, n: number) => {
      const tickets = Array.from({ length: n }, () => gate.enter());
      c.advance(latencyMs);
      tickets.forEach((t) => t.release());
    };
    round(4_000, 20);
    const shrunk = gate.snapshot().limit;
    expect(shrunk).toBeLessThan(20);
    expect(shrunk).toBeGreaterThanOrEqual(1);
    const refused = (() => {
      const inside = Array.from({ length: shrunk }, () => gate.enter());
      const error = refusalOf(() => gate.enter());
      inside.forEach((t) => t.release());
      return error;
    })();
    // Retry-After: one typical latency, by which every place has turned over.
    expect(refused).toMatchObject({ retryAfterSeconds: 4, details: { reason: 'overloaded', limit: shrunk } });
    for (let i = 0; i < 60; i++) round(100, 1);
    expect(gate.snapshot().limit).toBe(20);
  });

  it('a quiet spell leaves no trace: after it the gate starts open, whatever the last overload did to its limit', () => {
    const c = clock();
    const gate = new BoundedAdmission({ maxInFlight: 20, maxWaitS: 0.5, fallbackRetryAfterS: 2, kind: 'login' }, c.now);
    const overload = Array.from({ length: 20 }, () => gate.enter());
    c.advance(3_000);
    overload.forEach((t) => t.release());
    expect(gate.snapshot().limit).toBeLessThan(20);
    c.advance(60_000);
    // The start of a class: 20 right-password logins in the same instant.
    const burst = Array.from({ length: 20 }, () => gate.enter());
    expect(gate.snapshot()).toMatchObject({ inside: 20, limit: 20, medianLatencyS: null });
    burst.forEach((t) => t.release());
  });

  it.each([
    { windowS: undefined, windowMs: 30_000 },
    { windowS: 3, windowMs: 3_000 },
  ])('a gate starts open once it has been quiet for its whole window (windowS $windowS), not a moment before', ({ windowS, windowMs }) => {
    const c = clock();
    const gate = new BoundedAdmission({ maxInFlight: 20, maxWaitS: 0.5, fallbackRetryAfterS: 2, kind: 'login', ...(windowS ? { windowS } : {}) }, c.now);
    const overload = Array.from({ length: 20 }, () => gate.enter());
    c.advance(3_000);
    overload.forEach((t) => t.release());
    const shrunk = gate.snapshot().limit;
    expect(shrunk).toBeLessThan(20);
    c.advance(windowMs - 1);
    expect(gate.snapshot()).toMatchObject({ limit: shrunk, medianLatencyS: 3, windowCompletions: 20 });
    c.advance(1);
    expect(gate.snapshot()).toMatchObject({ limit: shrunk, medianLatencyS: 3, windowCompletions: 20 });
    c.advance(1);
    expect(gate.snapshot()).toMatchObject({ limit: 20, medianLatencyS: null, windowCompletions: 0 });
  });

  it('an idle gate never decays: long after its last completion a newcomer is admitted at once', () => {
    const c = clock();
    const gate = new BoundedAdmission({ maxInFlight: 4, maxWaitS: 1, fallbackRetryAfterS: 5 }, c.now);
    for (let i = 0; i < 10; i++) {
      gate.enter().release();
      c.advance(100);
    }
    const stuck = gate.enter();
    for (const quiet of [1_000, 9_000, 20_000, 600_000]) {
      c.advance(quiet);
      gate.enter().release();
    }
    expect(gate.snapshot()).toMatchObject({ inside: 1, refused: 0, limit: 4 });
    stuck.release();
  });

  it('without a measured rate only the count bounds, and the refusal falls back to the configured Retry-After', () => {
    const gate = new BoundedAdmission({ maxInFlight: 1, maxWaitS: 0.001, fallbackRetryAfterS: 7 });
    gate.enter();
    expect(refusalOf(() => gate.enter())).toMatchObject({ retryAfterSeconds: 7, details: { median_latency_s: null } });
  });
});
