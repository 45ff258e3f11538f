/**
 * What the admin commands read from the environment: the connections every process uses
 * (libs/variant) and SG_STORAGE, the storage of the variant being administered (minio: reset
 * and sweep include the object store).
 */
import type { Pool } from 'pg';
import { createPool } from '@shellgrade/persistence';
import { connectionsSchema, databaseSchema, type Connections } from '@shellgrade/variant';
import { z } from 'zod';

const toolEnvSchema = connectionsSchema.extend({ SG_STORAGE: z.enum(['postgres', 'minio']).optional() });

export type ToolEnv = Connections & { SG_STORAGE?: 'postgres' | 'minio' };

export function loadToolEnv(env: NodeJS.ProcessEnv): ToolEnv {
  const parsed = toolEnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid environment:\n  ${lines.join('\n  ')}`);
  }
  return parsed.data;
}

/** A command's own small pool, its idle timeout the spec's (database.idleTimeoutMs). */
export function toolPool(databaseUrl: string, size: number): Pool {
  return createPool({ databaseUrl, size, idleTimeoutMs: databaseSchema.parse({}).idleTimeoutMs });
}
