/**
 * What one service process is told: its place (role, replica, address, upstreams) and the
 * validated variant spec, serialized as ONE environment variable (SG_PROCESS, JSON) by the
 * launcher and the deployment generators, and validated again by the process. Connections and
 * secrets come beside it (connections.ts).
 */
import { z } from 'zod';
import type { Connections } from './connections';
import { variantSpecSchema, type Role } from './spec';

export const PROCESS_ENV = 'SG_PROCESS';

export const processConfigSchema = z.strictObject({
  role: z.enum(['monolith', 'gateway', 'leftover', 'exercise']),
  replica: z.number().int().min(0),
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535),
  /** Where an msa process sends its internal calls (a replica, or an HAProxy frontend). */
  upstreams: z
    .strictObject({
      leftoverUrl: z.string().url(),
      exerciseUrl: z.string().url(),
      /** transport grpc: grpc-js targets of the services' gRPC edges (e.g. ipv4:127.0.0.1:4300,127.0.0.1:4301). */
      leftoverGrpc: z.string().min(1).optional(),
      exerciseGrpc: z.string().min(1).optional(),
    })
    .optional(),
  /** The address the variant's entry is reached on, when it is not this process's own (e.g. HAProxy's, with --listen). */
  exposedOn: z.string().min(1).optional(),
  /**
   * The operator accepts a grader whose isolation is weaker than promised (no nested student
   * sandbox, no per-grading control groups) beyond loopback: `--force-exposed`, or a container
   * deployment that says what falls back. Without it such a grader refuses to start there.
   */
  acceptWeakIsolation: z.literal(true).optional(),
  spec: variantSpecSchema,
});

export type ProcessConfig = z.output<typeof processConfigSchema>;
/** A service's whole configuration: its process config and the machine's connections. */
export type ServiceConfig = ProcessConfig & { connections: Connections };

export function processConfigOf(
  spec: ProcessConfig['spec'],
  role: Role,
  replica: number,
  where: Pick<ProcessConfig, 'host' | 'port' | 'upstreams' | 'exposedOn' | 'acceptWeakIsolation'>,
): ProcessConfig {
  return {
    role,
    replica,
    host: where.host,
    port: where.port,
    ...(spec.topology === 'msa' ? { upstreams: where.upstreams } : {}),
    ...(where.exposedOn ? { exposedOn: where.exposedOn } : {}),
    ...(where.acceptWeakIsolation ? { acceptWeakIsolation: true as const } : {}),
    spec,
  };
}

export function encodeProcessConfig(cfg: ProcessConfig): string {
  return JSON.stringify(cfg);
}

export function decodeProcessConfig(raw: string): ProcessConfig {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new Error(`${PROCESS_ENV} is not JSON: ${(error as Error).message}`);
  }
  const parsed = processConfigSchema.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid ${PROCESS_ENV}:\n  ${lines.join('\n  ')}`);
  }
  return parsed.data;
}
