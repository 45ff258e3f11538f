/** The HTTP edge options of an app built by a unit test: small bounds, internal ops access; a test states only what it changes. */
import type { HttpAppOptions } from '../bootstrap';

export function testAppOptions(overrides: Partial<HttpAppOptions> = {}): HttpAppOptions {
  return { title: 't', corsOrigins: '', maxArchiveBytes: 1024, opsAccess: 'internal', keepAliveMs: 5000, requestTimeoutMs: 10_000, ...overrides };
}
