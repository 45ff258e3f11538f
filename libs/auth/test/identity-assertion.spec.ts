import { DomainError } from '@shellgrade/domain';
import { IDENTITY_ASSERTION_HEADER, IDENTITY_REFUSAL_HEADER, IdentityAssertions } from '../src/identity-assertion';
import { TokenService } from '../src/jwt-tokens';
import { GatewayAssertionAuthenticator } from '../src/request-authenticators';

const SECRET = 'unit-test-secret-0123456789';
const assertions = new IdentityAssertions(SECRET);
const student = { id: 3, email: 's@x.test', role: 'student' as const, sid: 'sid-1', ver: 2 };
const refusal = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (err) {
    return err instanceof DomainError ? `${err.kind}: ${err.message}` : 'other';
  }
};

describe('identity assertions (gateway offloading)', () => {
  afterEach(() => jest.useRealTimers());

  it('carry who the gateway authenticated, verified with the same installation secret', () => {
    expect(assertions.verify(assertions.sign(student))).toEqual(student);
  });

  it('are refused when signed with another key, tampered with, or older than 30 s', () => {
    expect(refusal(() => assertions.verify(new IdentityAssertions('another-secret-0123456789').sign(student)))).toMatch(/^unauthenticated: .*forged/);
    const [head, , sig] = assertions.sign(student).split('.');
    const body = Buffer.from(JSON.stringify({ typ: 'identity', email: 's@x.test', role: 'admin', sid: 'sid-1', ver: 2, sub: '3', aud: 'shellgrade-services', iss: 'shellgrade-gateway' })).toString('base64url');
    expect(refusal(() => assertions.verify(`${head}.${body}.${sig}`))).toMatch(/^unauthenticated/);
    jest.useFakeTimers({ now: Date.now() });
    const fresh = assertions.sign(student);
    jest.setSystemTime(Date.now() + 31_000);
    expect(refusal(() => assertions.verify(fresh))).toMatch(/expired/);
  });

  it('never pass for an access token signed with the same secret, nor the other way round', () => {
    const tokens = new TokenService({ secret: SECRET, accessTtlSeconds: 60, refreshTtlSeconds: 60 });
    const access = tokens.signAccess(student, { sid: student.sid, ver: student.ver });
    expect(refusal(() => assertions.verify(access))).toMatch(/^unauthenticated/);
    expect(refusal(() => tokens.verifyAccess(assertions.sign(student)))).toMatch(/^unauthenticated/);
  });
});

describe('GatewayAssertionAuthenticator (services behind an offloading gateway)', () => {
  const authenticator = new GatewayAssertionAuthenticator(assertions);

  it('authenticates by the assertion header alone', async () => {
    await expect(authenticator.authenticate({ headers: { [IDENTITY_ASSERTION_HEADER]: assertions.sign(student) } })).resolves.toEqual(student);
  });

  it('refuses a request without one, with the gateway reason when the gateway gave one', async () => {
    await expect(authenticator.authenticate({ headers: {} })).rejects.toThrow(/through the gateway/);
    await expect(authenticator.authenticate({ headers: { [IDENTITY_REFUSAL_HEADER]: 'access token expired' } })).rejects.toThrow('access token expired');
  });
});
