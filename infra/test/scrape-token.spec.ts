/**
 * The scrape token that opens /metrics, /docs and /health detail is a
 * per-installation secret like the others, handed to every service process the launcher, the
 * compose and the Kubernetes generators start (env SG_SCRAPE_TOKEN), never written in clear
 * into a shared file.
 */
import { parse } from 'yaml';
import { loadVariant } from '@shellgrade/variant';
import { composeFiles } from '../src/deploy/compose';
import { kubernetesManifests } from '../src/deploy/kubernetes';
import { ecosystem } from '../src/launcher/ecosystem';
import { generateSecrets } from '../src/secrets';

const secrets = generateSecrets();

describe('the scrape token, per installation', () => {
  it('is generated with the other secrets, long and different on every installation', () => {
    expect(secrets.scrapeToken.length).toBeGreaterThanOrEqual(32);
    expect(generateSecrets().scrapeToken).not.toBe(secrets.scrapeToken);
    expect(secrets.scrapeToken).not.toBe(secrets.jwtSecret);
  });

  it('reaches every service replica the launcher starts', () => {
    const scrapeToken = 'scrape-token-of-this-installation-0123456789';
    const apps = ecosystem(loadVariant('msa-2-4-4'), { haproxyConfig: '/h.cfg', jwtSecret: secrets.jwtSecret, scrapeToken }).apps.filter((a) => a.name !== 'sg-haproxy');
    expect(apps.map((a) => a.env.SG_SCRAPE_TOKEN)).toEqual(apps.map(() => scrapeToken));
  });

  it('compose: the services refer to it, its value is only in .env', () => {
    const files = composeFiles(loadVariant('msa-1-2'), { context: '.', dockerfile: 'Dockerfile' }, secrets);
    const doc = parse(files['docker-compose.yml']!) as { services: Record<string, { environment?: Record<string, string> }> };
    for (const role of ['gateway', 'leftover', 'exercise']) expect(doc.services[role]!.environment?.SG_SCRAPE_TOKEN).toMatch(/^\$\{SG_SCRAPE_TOKEN:/);
    expect(files['docker-compose.yml']).not.toContain(secrets.scrapeToken);
    expect(files['.env']).toContain(`SG_SCRAPE_TOKEN=${secrets.scrapeToken}`);
  });

  it('Kubernetes: in the credentials Secret, never in a ConfigMap', () => {
    const objs = kubernetesManifests(loadVariant('msa-1-2'), { secrets }) as { kind: string; metadata: { name: string }; data?: Record<string, string>; stringData?: Record<string, string> }[];
    expect(objs.find((o) => o.kind === 'Secret')!.stringData).toMatchObject({ SG_SCRAPE_TOKEN: secrets.scrapeToken });
    for (const map of objs.filter((o) => o.kind === 'ConfigMap')) expect(map.data ?? {}).not.toHaveProperty('SG_SCRAPE_TOKEN');
  });
});
