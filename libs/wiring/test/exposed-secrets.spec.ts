/**
 * `variant up <preset> --listen <address>` exposes HAProxy, not the replicas behind it, and they
 * answer the network all the same: every replica of the launch plan must judge its secrets and
 * password hashing as exposed. Each planned process is read as it reads itself at start — its
 * SG_PROCESS, the secrets the launcher hands every replica (a generated token secret and scrape
 * token, infra/src/launcher/ecosystem.ts), the connections' defaults for the rest (the native
 * servers' published development accounts) — and given to the auth settings, where a service
 * refuses to start.
 */
import { decodeProcessConfig, loadConnections, loadVariant, PROCESS_ENV, variantProcesses, type ServiceConfig } from '@shellgrade/variant';
import { authConfigOf } from '../src';

/** What the launcher adds to every replica's environment (run/secrets.json). */
const launcherSecrets = { SG_JWT_SECRET: 'kq3v9XbL2pW8rT5mZ1cN7fH4sD6gJ0aYw2Xe', SG_SCRAPE_TOKEN: 'Vb6nQ2xR8kT1wY5zVb6nQ2xR8kT1wY5z' };

function plannedServices(preset: string, listen?: string): { name: string; cfg: ServiceConfig }[] {
  return variantProcesses(loadVariant(preset), listen ? { listen } : {})
    .filter((p) => p.role !== 'haproxy')
    .map((p) => {
      const env: Record<string, string> = { ...launcherSecrets, ...p.env };
      return { name: p.name, cfg: { ...decodeProcessConfig(env[PROCESS_ENV]!), connections: loadConnections(env) } };
    });
}

const startError = (cfg: ServiceConfig): string | undefined => {
  try {
    authConfigOf(cfg);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('variant up --listen beyond loopback: every token-checking replica refuses the published defaults', () => {
  it.each(['msa-zygote-1-2', 'mon-x2'])('%s --listen 0.0.0.0: refused at start in every role, with the reason', (preset) => {
    const services = plannedServices(preset, '0.0.0.0');
    expect(services.length).toBeGreaterThan(1);
    for (const { name, cfg } of services) {
      // Each replica itself binds loopback: only the exposure address tells it the network reaches it.
      expect({ name, host: cfg.host }).toEqual({ name, host: '127.0.0.1' });
      expect({ name, error: startError(cfg) }).toEqual({
        name,
        error: expect.stringMatching(
          new RegExp(`^refusing to start outside development mode: ${cfg.role} replica ${cfg.replica} is reached on 0\\.0\\.0\\.0 \\(beyond loopback\\)[\\s\\S]*DATABASE_URL has no password or a published default one`),
        ),
      });
    }
    expect(new Set(services.map((s) => s.cfg.role))).toEqual(new Set(preset === 'mon-x2' ? ['monolith'] : ['leftover', 'exercise']));
  });

  it('msa-zygote-1-2 on loopback (no --listen): every replica starts with the development accounts', () => {
    for (const { name, cfg } of plannedServices('msa-zygote-1-2')) expect({ name, error: startError(cfg) }).toEqual({ name, error: undefined });
  });
});
