/**
 * `variant up <preset> --listen <address>` exposes HAProxy, not the replicas behind it, and they
 * answer the network all the same: every replica the launcher would start must judge its secrets
 * and password hashing as exposed. Each app is read as its process reads itself at start — the
 * SG_PROCESS and secrets pm2 hands it, the connections' defaults for the rest (the native servers'
 * published development accounts) — and given to the wiring's auth settings, where a service
 * refuses to start.
 */
import { authConfigOf } from '@shellgrade/wiring';
import { decodeProcessConfig, loadConnections, loadVariant, PROCESS_ENV, type ServiceConfig } from '@shellgrade/variant';
import { ecosystem } from './ecosystem';

/** What the launcher hands every replica: a generated token secret and scrape token (run/secrets.json). */
const generated = { haproxyConfig: '/repo/run/variant/haproxy.cfg', jwtSecret: 'kq3v9XbL2pW8rT5mZ1cN7fH4sD6gJ0aYw2Xe', scrapeToken: 'Vb6nQ2xR8kT1wY5zVb6nQ2xR8kT1wY5z' };

function plannedServices(preset: string, listen?: string): { name: string; cfg: ServiceConfig }[] {
  const { apps } = ecosystem(loadVariant(preset), { ...generated, placement: listen ? { listen } : {} });
  return apps
    .filter((app) => app.env[PROCESS_ENV] !== undefined)
    .map((app) => ({ name: app.name, cfg: { ...decodeProcessConfig(app.env[PROCESS_ENV]!), connections: loadConnections(app.env) } }));
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
        error: expect.stringMatching(new RegExp(`^refusing to start outside development mode: ${cfg.role} replica ${cfg.replica} is reached on 0\\.0\\.0\\.0 \\(beyond loopback\\)[\\s\\S]*DATABASE_URL has no password or a published default one`)),
      });
    }
    expect(new Set(services.map((s) => s.cfg.role))).toEqual(new Set(preset === 'mon-x2' ? ['monolith'] : ['leftover', 'exercise']));
  });

  it('msa-zygote-1-2 on loopback (no --listen): every replica starts with the development accounts', () => {
    for (const { name, cfg } of plannedServices('msa-zygote-1-2')) expect({ name, error: startError(cfg) }).toEqual({ name, error: undefined });
  });
});
