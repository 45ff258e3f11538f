// e2e-variants: msa-1-2, msa-zygote-1-2
/**
 * gateway.engine haproxy on the real launcher, HAProxy and services: HAProxy
 * stands in for the Node gateway without a client seeing the difference — the same preflight
 * answers as the Node gateway of msa-1-2, the browser app and unknown paths served as before,
 * and a service with no replica up answered with a problem a student can read, not an HTML page.
 * Scenario R and a killed exercise replica on it are variants.e2e.ts's.
 */
import { removeVariantProcess } from '@shellgrade/launcher';
import { variantUp } from './support/stack';

jest.setTimeout(600_000);

/** Preflights a browser would send: the SPA's submission, a login, an unknown path; same-site, foreign and no origin. */
const PREFLIGHTS = [
  { path: '/api/exercise-production', origin: 'http://localhost:8081', headers: 'content-type,idempotency-key' },
  { path: '/api/user/login', origin: 'http://evil.example', headers: 'content-type' },
  { path: '/api/no-such-thing/7', origin: undefined, headers: undefined },
];

async function preflightAnswers(entry: string): Promise<Record<string, string>[]> {
  const answers: Record<string, string>[] = [];
  for (const p of PREFLIGHTS) {
    const res = await fetch(entry + p.path, {
      method: 'OPTIONS',
      headers: {
        'Access-Control-Request-Method': 'POST',
        ...(p.origin ? { Origin: p.origin } : {}),
        ...(p.headers ? { 'Access-Control-Request-Headers': p.headers } : {}),
      },
    });
    const cors = Object.fromEntries([...res.headers].filter(([name]) => name.startsWith('access-control-') || name === 'vary'));
    answers.push({ status: String(res.status), ...cors });
  }
  return answers;
}

describe('HAProxy as the gateway (msa-zygote-1-2)', () => {
  it('answers every preflight as the Node gateway of msa-1-2 does', async () => {
    const nodeGateway = await preflightAnswers((await variantUp('msa-1-2')).entry);
    const { entry, processes } = await variantUp('msa-zygote-1-2');
    expect(processes.map((p) => p.role)).not.toContain('gateway');
    const haproxy = await preflightAnswers(entry);
    expect(nodeGateway[0]).toMatchObject({ status: '204', 'access-control-allow-methods': expect.stringContaining('POST') });
    expect(haproxy).toEqual(nodeGateway);
  });

  it('serves the browser app, and answers an unknown API path with a problem', async () => {
    const { entry } = await variantUp('msa-zygote-1-2');
    const page = await fetch(`${entry}/`, { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const unknown = await fetch(`${entry}/api/no-such-thing`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
  });

  it('with no exercise replica up, a submission gets 503 problem+json with Retry-After naming the service', async () => {
    const { entry, processes } = await variantUp('msa-zygote-1-2');
    const exercise = processes.filter((p) => p.role === 'exercise').map((p) => p.name);
    expect(exercise.length).toBeGreaterThan(0);
    try {
      for (const name of exercise) await removeVariantProcess(name);
      const res = await fetch(`${entry}/api/exercise-production`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.headers.get('retry-after')).toBe('1');
      expect(await res.json()).toMatchObject({ status: 503, detail: 'the exercise service is not available right now; retry shortly' });
      // The leftover's routes are not affected.
      expect((await fetch(`${entry}/health`)).status).toBe(200);
    } finally {
      await variantUp('msa-zygote-1-2'); // brings the replicas back
    }
  });
});
