// e2e-variants: naked-mon
/**
 * Failed-login limits through the real HTTP stack of a launched variant (naked-mon via the
 * launcher, its spec's default limits: 10 failures per account, 30 per address, 15 min): an
 * address spraying one password over many accounts is refused before it has tried them all, and
 * strangers failing on an account never lock out its owner. naked-mon has no proxy in front, so
 * the client address that keys the limits is the TCP peer: each client here connects from an
 * address of its own in 127.0.0.0/8 (never 127.0.0.1, which the other e2e files log in from), in a
 * /16 drawn per run: the variant's counters outlive a run when the launcher keeps it up.
 */
import { Agent, fetch } from 'undici';
import { loadVariant } from '@shellgrade/variant';
import type { SeededUser } from './support/scenario-r';
import { seed, variantUp } from './support/stack';

jest.setTimeout(300_000);

const limits = loadVariant('naked-mon').auth.rateLimits;
/** This run's client addresses: 127.<net>.0.<host>. */
const net = 2 + Math.floor(Math.random() * 250);
const at = (host: number) => `127.${net}.0.${host}`;
let entry: string;
let users: SeededUser[];

beforeAll(async () => {
  entry = (await variantUp('naked-mon')).entry;
  users = await seed(64);
});

/** A client at its own loopback address (naked-mon believes no X-Forwarded-For: the peer is the client). */
function clientAt(address: string) {
  const dispatcher = new Agent({ localAddress: address });
  return {
    async login(email: string, password: string) {
      const res = await fetch(`${entry}/api/user/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password }),
        dispatcher,
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as { detail?: string }) : null };
    },
    close: () => dispatcher.close(),
  };
}

describe('failed-login limits over HTTP (naked-mon, spec defaults)', () => {
  it('runs with the defaults these tests assume', () => {
    expect(limits).toMatchObject({ enabled: true, loginFailuresPerAccount: { points: 10 }, loginFailuresPerAddress: { points: 30 } });
  });

  it('50 wrong passwords over 50 accounts from one address: 429 problem+json with Retry-After before the 50th', async () => {
    const sprayer = clientAt(at(77));
    try {
      const statuses: number[] = [];
      for (const u of users.slice(12, 62)) statuses.push((await sprayer.login(u.email, 'Spring2026!')).status);
      expect(statuses.slice(0, 30)).toEqual(new Array(30).fill(401));
      expect(statuses.slice(30)).toEqual(new Array(20).fill(429));
      const refused = await sprayer.login(users[62]!.email, users[62]!.password);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(refused.body?.detail).toMatch(/too many failed logins from your address/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // Another address logs in as usual.
      const neighbour = clientAt(at(80));
      expect((await neighbour.login(users[62]!.email, users[62]!.password)).status).toBe(200);
      await neighbour.close();
    } finally {
      await sprayer.close();
    }
  });

  it('20 wrong passwords from address A, then the right password from address B: 200', async () => {
    const victim = users[63]!;
    const [a, b] = [clientAt(at(78)), clientAt(at(79))];
    try {
      const fromA: number[] = [];
      for (let i = 0; i < 20; i++) fromA.push((await a.login(victim.email, `guess-${i}`)).status);
      // At most the account allowance of A's guesses are checked (fewer if an earlier run left the account's window warm), then A is refused.
      const checked = fromA.indexOf(429);
      expect(checked).toBeGreaterThanOrEqual(1);
      expect(checked).toBeLessThanOrEqual(10);
      expect(fromA).toEqual([...new Array(checked).fill(401), ...new Array(20 - checked).fill(429)]);
      expect((await b.login(victim.email, victim.password)).status).toBe(200);
      // A, which failed, is the one held back, with a reason and a wait.
      const heldBack = await a.login(victim.email, victim.password);
      expect(heldBack.status).toBe(429);
      expect(heldBack.body?.detail).toMatch(/too many failed logins for this account/);
      expect(Number(heldBack.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
