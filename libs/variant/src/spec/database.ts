// The database section: each process's PostgreSQL pool.
import { z } from 'zod';
import { millis, positiveInt } from './values';

export const databaseSchema = z.strictObject({
  /** Connections per process; every replica opens its own pool against the one database. */
  pool: positiveInt().max(200).default(10),
  /** An idle pooled connection is closed after this long: a quiet replica gives its server slots back. */
  idleTimeoutMs: millis.default(30_000),
});
