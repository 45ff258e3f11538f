/**
 * Auth and HTTP-edge settings for tests that compose libs/api by hand: the spec's defaults
 * (libs/variant) mapped by the wiring, exactly as a monolith process gets them; a test states
 * only what it changes (in the spec's own field names).
 */
import type { AuthConfig } from '@shellgrade/auth';
import type { HttpAppOptions } from '@shellgrade/http';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { loadConnections, processConfigOf, validateVariant, type ServiceConfig, type VariantSpecInput } from '@shellgrade/variant';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { authConfigOf, httpOptionsOf } from '@shellgrade/wiring';

type AuthInput = NonNullable<VariantSpecInput['auth']>;
type HttpInput = NonNullable<VariantSpecInput['http']>;

/** Short tokens and cheap hashes: tests log in hundreds of times. */
const TEST_AUTH: AuthInput = { accessTtlS: 60, refreshTtlS: 3600, kdfCost: 4 };

function serviceConfig(auth: AuthInput, http: HttpInput): ServiceConfig {
  const spec = validateVariant({
    name: 'api-test',
    description: 'libs/api tests: one monolith',
    topology: 'monolith',
    dispatch: 'inline',
    replicas: { monolith: 1 },
    auth: { ...TEST_AUTH, ...auth },
    http,
  });
  const connections = loadConnections({ ...process.env, SG_JWT_SECRET: 'integration-secret-0123456789' });
  return { ...processConfigOf(spec, 'monolith', 0, { host: '127.0.0.1', port: 0 }), connections };
}

export const testAuthConfig = (auth: AuthInput = {}): AuthConfig => authConfigOf(serviceConfig(auth, {}));

/** `auth.trustedProxies` decides whose X-Forwarded-* the app believes (a monolith reached directly: nobody's). */
export const testHttpOptions = (http: HttpInput = {}, auth: AuthInput = {}): HttpAppOptions => httpOptionsOf(serviceConfig(auth, http), 'test');

const WIDE = { points: 1_000, durationS: 600 };

/** Rate limits no test reaches unless it narrows one (`overrides`, in AuthConfig's names). */
export function wideRateLimits(overrides: Partial<AuthConfig['rateLimits']> = {}): AuthConfig['rateLimits'] {
  return {
    enabled: true,
    store: 'memory',
    loginFailuresPerAccount: WIDE,
    loginFailuresPerClient: WIDE,
    loginFailuresPerAddress: WIDE,
    enrolmentKeyFailuresPerUser: WIDE,
    submissionsPerStudent: WIDE,
    trialsPerAuthor: WIDE,
    trialsInFlight: 2,
    ...overrides,
  };
}
