/**
 * The enrolment-key limit holds under concurrency: its point is taken before
 * the key is checked, so N concurrent wrong keys of one student check at most the allowance.
 * Against the real Redis store (counters shared by every replica). The key checks are held at a
 * barrier until every attempt has reached its check or been refused: no timing involved.
 */
// Tests take the servers' addresses from the spec library, as the services do.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { loadConnections } from '@shellgrade/variant';
import { Redis } from 'ioredis';
import { RateLimits } from '../src/rate-limits';
import type { RateLimitConfig } from '../src/rate-limits.config';

const REDIS_DB = 10;
const ALLOWANCE = 10;
const N = 40;
const WIDE = { points: 1_000, durationS: 600 };

function redisUrl(): string {
  const url = new URL(loadConnections({ REDIS_URL: process.env.REDIS_URL }).REDIS_URL);
  url.pathname = `/${REDIS_DB}`;
  return url.toString();
}

const config = (): RateLimitConfig =>
  ({
    enabled: true,
    store: 'redis',
    redisUrl: redisUrl(),
    loginFailuresPerAccount: WIDE,
    loginFailuresPerClient: WIDE,
    loginFailuresPerAddress: WIDE,
    enrolmentKeyFailuresPerUser: { points: ALLOWANCE, durationS: 600 },
    submissionsPerStudent: WIDE,
    trialsPerAuthor: WIDE,
    trialsInFlight: 1,
  }) as RateLimitConfig;

/** Key checks wait here until every attempt is accounted for (checked or refused). */
function barrier(total: number) {
  let checked = 0;
  let refused = 0;
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const settle = () => {
    if (checked + refused === total) open();
  };
  return {
    checked: () => checked,
    async wrongKey(): Promise<boolean> {
      checked++;
      settle();
      await opened;
      return false;
    },
    refusedOne(): void {
      refused++;
      settle();
    },
  };
}

describe('enrolment-key limit under concurrency (real Redis)', () => {
  const limits: RateLimits[] = [];
  const fresh = async () => {
    const l = new RateLimits(config());
    limits.push(l);
    await l.ready();
    return l;
  };

  beforeAll(async () => {
    const redis = new Redis(redisUrl());
    await redis.flushdb();
    redis.disconnect();
  });

  afterAll(async () => {
    for (const l of limits) await l.close();
  });

  it('40 concurrent wrong keys through check / verify / failed (the sessions controller today) check at most the allowance', async () => {
    const [a, b] = [await fresh(), await fresh()]; // two replicas sharing the Redis counters
    const gate = barrier(N);
    const attempt = async (i: number) => {
      const replica = i % 2 ? a : b;
      try {
        await replica.checkEnrolmentKey(41);
      } catch (refusal) {
        gate.refusedOne();
        return (refusal as { kind?: string }).kind;
      }
      if (!(await gate.wrongKey())) await replica.enrolmentKeyFailed(41);
      return 'wrong';
    };
    const outcomes = await Promise.all(Array.from({ length: N }, (_, i) => attempt(i)));
    console.log(`${N} concurrent wrong enrolment keys → ${gate.checked()} keys checked (allowance ${ALLOWANCE})`);
    expect(gate.checked()).toBeLessThanOrEqual(ALLOWANCE);
    expect(outcomes.filter((o) => o === 'rate-limited')).toHaveLength(N - gate.checked());
  });

  it('attemptEnrolmentKey: 40 concurrent wrong keys check at most the allowance; a right key gives its point back', async () => {
    const l = await fresh();
    const gate = barrier(N);
    const outcomes = await Promise.all(
      Array.from({ length: N }, () =>
        l.attemptEnrolmentKey(42, () => gate.wrongKey()).catch((refusal: { kind?: string }) => {
          gate.refusedOne();
          return refusal.kind;
        }),
      ),
    );
    expect(gate.checked()).toBeLessThanOrEqual(ALLOWANCE);
    expect(outcomes.filter((o) => o === 'rate-limited')).toHaveLength(N - gate.checked());

    const other = await fresh();
    for (let i = 0; i < 3 * ALLOWANCE; i++) expect(await other.attemptEnrolmentKey(43, async () => true)).toBe(true);
    expect(await other.attemptEnrolmentKey(43, async () => false)).toBe(false);
  });
});
