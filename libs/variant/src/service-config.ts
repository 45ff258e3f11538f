/** How a service process reads its configuration at start-up. */
import { connectionsSchema } from './connections';
import { loadVariant } from './loader';
import { decodeProcessConfig, PROCESS_ENV, processConfigOf, type ServiceConfig } from './process-config';
import { loopbackUpstreams, LOOPBACK, replicaPort } from './processes';
import type { Role } from './spec';

/** The preset a service started by hand (no SG_PROCESS) runs as: replica 0 of it, on loopback. */
const BY_HAND_PRESET: Record<Role, string> = { monolith: 'dev', gateway: 'msa-1-1', leftover: 'msa-1-1', exercise: 'msa-1-1' };

/** Reads SG_PROCESS (or, by hand, replica 0 of SG_VARIANT / the role's dev preset) and the connections. */
export function loadServiceConfig(role: Role, env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const connections = connectionsSchema.parse(env);
  const raw = env[PROCESS_ENV];
  if (raw === undefined || raw === '') {
    const spec = loadVariant(env.SG_VARIANT ?? BY_HAND_PRESET[role]);
    const port = replicaPort(role, 0);
    return { ...processConfigOf(spec, role, 0, { host: LOOPBACK, port, upstreams: loopbackUpstreams(spec) }), connections };
  }
  const cfg = decodeProcessConfig(raw);
  if (cfg.role !== role) throw new Error(`${PROCESS_ENV} is for role ${cfg.role}, but this is the ${role} service`);
  return { ...cfg, connections };
}

