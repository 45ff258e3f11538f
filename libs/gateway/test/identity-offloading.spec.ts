/**
 * gateway.pattern offloading at the gateway (stub services here; the real ones in
 * test/offloading.e2e.ts): the login is checked once, the service receives a signed assertion,
 * and nothing a client sends in the assertion headers survives.
 */
import { IDENTITY_ASSERTION_HEADER, IDENTITY_REFUSAL_HEADER, IdentityAssertions, unauthenticated, type RequestAuthenticator } from '@shellgrade/auth';
import { createGatewayApp } from '../src';
import { send, startUpstream, type Upstream } from './fixtures';
import type { AddressInfo } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';

const assertions = new IdentityAssertions('unit-test-secret-0123456789');
const student = { id: 3, email: 's@x.test', role: 'student' as const, sid: 'sid-1', ver: 0 };
/** Stands in for the token + token-version check (the real one: AccessTokenAuthenticator, unit-tested in libs/auth). */
const authenticator: RequestAuthenticator = {
  authenticate: async (req) => {
    if ((req.cookies as Record<string, string> | undefined)?.access_token === 'good') return student;
    throw unauthenticated('access token expired');
  },
};

describe('identity offloading at the gateway', () => {
  let leftover: Upstream;
  let gateway: NestExpressApplication;
  let url: string;

  beforeAll(async () => {
    leftover = await startUpstream((_req, res) => res.end('{}'));
    gateway = await createGatewayApp(
      {
        replica: 0, pattern: 'offloading', exerciseUrls: [leftover.url], leftoverUrls: [leftover.url], upstreamTimeoutMs: 2000,
        upstreamMaxSockets: 8, upstreamMaxFreeSockets: 8, corsOrigins: '', opsAccess: 'internal', downCooldownMs: 1000, clientKeepAliveMs: 5000,
      },
      { logger: false, offloading: { authenticator, assertions } },
    );
    await gateway.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(gateway.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await gateway.close();
    await leftover.close();
  });
  beforeEach(() => void (leftover.requests.length = 0));

  it('forwards a logged-in request with an assertion the services verify', async () => {
    await send(`${url}/api/user/me`, { headers: { cookie: 'access_token=good' } });
    const forwarded = leftover.requests[0]!.headers;
    expect(assertions.verify(forwarded[IDENTITY_ASSERTION_HEADER] as string)).toEqual(student);
    expect(forwarded[IDENTITY_REFUSAL_HEADER]).toBeUndefined();
  });

  it('forwards a request it could not authenticate without an assertion, with the reason, and drops what the client sent', async () => {
    const smuggled = assertions.sign({ ...student, role: 'admin' });
    await send(`${url}/api/user/me`, { headers: { cookie: 'access_token=stale', [IDENTITY_ASSERTION_HEADER]: smuggled, [IDENTITY_REFUSAL_HEADER]: 'x' } });
    const forwarded = leftover.requests[0]!;
    expect(forwarded.headers[IDENTITY_ASSERTION_HEADER]).toBeUndefined();
    expect(forwarded.headers[IDENTITY_REFUSAL_HEADER]).toBe('access token expired');
  });

  it('lets a login through (it carries no token yet)', async () => {
    await send(`${url}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(leftover.requests.map((r) => r.url)).toEqual(['/api/user/login']);
  });
});
