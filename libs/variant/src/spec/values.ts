// The value shapes every section of the spec builds on (counts, durations, sizes), each with an
// error that names what was expected. Internal to the spec: only MAX_REPLICAS is exported from it.
import { z } from 'zod';

/** Upper bound per role: replica i listens on <base>+i and the role bases are 100 apart. */
export const MAX_REPLICAS = 64;

export const positiveInt = (what = 'a positive integer') =>
  z
    .number({ error: `expected ${what}` })
    .int({ error: `expected ${what}` })
    .min(1, { error: `expected ${what}` });

export const replicaCount = positiveInt().max(MAX_REPLICAS, { error: `expected at most ${MAX_REPLICAS} replicas` });

export const millis = positiveInt('a positive number of milliseconds');


export const MiB = 1024 * 1024;
export const bytes = positiveInt('a positive number of bytes');


export const nonNegativeInt = (what: string) => z.number({ error: `expected ${what}` }).int({ error: `expected ${what}` }).min(0, { error: `expected ${what}` });
