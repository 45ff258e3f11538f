// The database section: each process's PostgreSQL pool.
import { z } from 'zod';
import { millis, positiveInt } from './values';

export const databaseSchema = z.strictObject({
  /** Connections per process; every replica opens its own pool against the one database. */
  pool: positiveInt().max(200).default(10),
  /** An idle pooled connection is closed after this long: a quiet replica gives its server slots back. */
  idleTimeoutMs: millis.default(30_000),
  /**
   * PostgreSQL's synchronous_commit on this installation's connections. `on`, the default and
   * every preset's: a write is answered once its WAL is on disk. `off`: answered before that, so
   * a crash of the server can lose the last moments of answered writes (never corrupt them). A
   * research knob that prices durability (npm run bench -- pg-statements --synchronous-commit
   * off), not a setting to ship: "stored before graded" rests on `on`.
   */
  synchronousCommit: z.enum(['on', 'off']).default('on'),
});
