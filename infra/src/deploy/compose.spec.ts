import { parse } from 'yaml';
import { listVariants, loadVariant } from '@shellgrade/variant';
import { generateSecrets } from '../secrets';
import { composeFiles } from './compose';
import { decodeProcessConfig } from '@shellgrade/variant';

const processOf = (env: Record<string, string> | undefined) => decodeProcessConfig(env?.SG_PROCESS ?? '');

interface ComposeDoc {
  name: string;
  services: Record<string, {
    image: string; command?: string[]; environment?: Record<string, string>; deploy?: { replicas: number };
    ports?: string[]; depends_on?: Record<string, { condition: string }>; restart?: string; build?: { context: string; dockerfile: string };
    security_opt?: string[]; volumes?: string[]; cap_add?: string[]; user?: string;
  }>;
  volumes?: Record<string, unknown>;
}

// Generated here: the tests never read or create this machine's run/secrets.json.
const secrets = generateSecrets();
const compose = (name: string) => {
  const files = composeFiles(loadVariant(name), { context: '../../../..', dockerfile: 'run/deploy/x/compose/Dockerfile' }, secrets);
  return { files, doc: parse(files['docker-compose.yml']) as ComposeDoc };
};

/** Every host an environment URL names must be a compose service (Docker DNS resolves service names). */
function unresolvedHosts(doc: ComposeDoc): string[] {
  const names = new Set(Object.keys(doc.services));
  const hosts = Object.values(doc.services).flatMap((s) =>
    Object.values(s.environment ?? {}).flatMap((v) => [...String(v).matchAll(/^[a-z]+:\/\/(?:[^@/]*@)?([a-z0-9-]+)(?::\d+)?/g)].map((m) => m[1])),
  );
  return hosts.filter((h) => !names.has(h));
}

describe('docker-compose generator', () => {
  it.each(listVariants())('%s publishes only its entry to other hosts; server UIs and HAProxy stats stay on the host loopback', (name) => {
    const { doc } = compose(name);
    const everyInterface = Object.entries(doc.services).flatMap(([service, s]) =>
      (s.ports ?? []).filter((p) => !p.startsWith('127.0.0.1:')).map((p) => `${service} ${p}`),
    );
    expect(everyInterface).toHaveLength(1);
  });

  it('tags the app image with the release it is built from, never latest', () => {
    const images = Object.values(compose('msa-rabbitmq-minio-2-4-4').doc.services).map((s) => s.image);
    expect(images.filter((i) => i?.startsWith('shellgrade/app'))).toEqual(expect.arrayContaining([`shellgrade/app:${process.env.npm_package_version ?? '0.1.0'}`]));
    expect(images.some((i) => i?.endsWith(':latest') && i.startsWith('shellgrade/'))).toBe(false);
  });

  it.each(listVariants())('%s: every image at a fixed version, never latest or untagged', (name) => {
    const images = Object.values(compose(name).doc.services).map((s) => s.image);
    expect(images.filter((i) => !/:[^:/]+$/.test(i) || i.endsWith(':latest'))).toEqual([]);
  });

  it.each(listVariants())('%s: confinement never disabled; only bubblewrap graders are root, with mounting allowed by their own AppArmor profile', (name) => {
    const { files, doc } = compose(name);
    const spec = loadVariant(name);
    for (const role of ['monolith', 'gateway', 'leftover', 'exercise'].filter((r) => doc.services[r])) {
      const s = doc.services[role];
      expect((s.security_opt ?? []).filter((o) => /unconfined/.test(o))).toEqual([]);
      expect(s.security_opt).toContain('no-new-privileges:true');
      const sandboxed = (role === 'monolith' || role === 'exercise') && spec.grader.isolation === 'bwrap';
      if (sandboxed) {
        expect(s).toMatchObject({ cap_add: ['SYS_ADMIN'] });
        expect(s.user).toBeUndefined();
        expect(s.security_opt).toContain('apparmor=shellgrade-grader');
      } else {
        expect(s.user).toBe('10001:10001');
        expect(s.cap_add).toBeUndefined();
      }
    }
    if (spec.grader.isolation === 'bwrap') expect(files['shellgrade-grader']).toMatch(/^profile shellgrade-grader .*\{[\s\S]*\bmount,[\s\S]*deny \/sys\/firmware/m);
    else expect(files['shellgrade-grader']).toBeUndefined();
  });

  it('naked-mon: postgres, migrations, one monolith published on 3000, no HAProxy', () => {
    const { files, doc } = compose('naked-mon');
    expect(Object.keys(doc.services).sort()).toEqual(['migrate', 'monolith', 'postgres']);
    const mono = doc.services.monolith;
    expect(mono).toMatchObject({ image: 'shellgrade/app:0.1.0', deploy: { replicas: 1 }, ports: ['3000:3000'], restart: 'always' });
    expect(mono.command).toEqual(['node', '--max-old-space-size=512', '--no-memory-reducer', '--max-semi-space-size=16', '--require', 'dist/libs/wiring/src/telemetry-preload.js', 'dist/services/monolith/src/main.js']);
    expect(mono.environment).toMatchObject({
      DATABASE_URL: 'postgres://shellgrade:${SG_DB_PASSWORD:?generated in .env next to docker-compose.yml}@postgres:5432/shellgrade',
      SG_JWT_SECRET: '${SG_JWT_SECRET:?generated in .env next to docker-compose.yml}',
    });
    expect(processOf(mono.environment)).toMatchObject({ role: 'monolith', port: 3000, host: '0.0.0.0', spec: { name: 'naked-mon', grader: { exec: 'blocking' } } });
    expect(mono.depends_on).toMatchObject({ postgres: { condition: 'service_healthy' }, migrate: { condition: 'service_completed_successfully' } });
    expect(mono.build).toEqual({ context: '../../../..', dockerfile: 'run/deploy/x/compose/Dockerfile' });
    expect(doc.services.postgres.image).toBe('postgres:15-bookworm');
    expect(doc.volumes).toHaveProperty('pgdata');
    expect(files['haproxy.cfg']).toBeUndefined();
    expect(files.Dockerfile).toMatch(/^FROM node:20-bookworm-slim AS build$/m);
    expect(files.Dockerfile).toMatch(/^FROM python:3\.11-slim-bookworm$/m);
    expect(unresolvedHosts(doc)).toEqual([]);
    // Plain YAML (no anchors) and no `restart: no`, which YAML 1.1 readers take for a boolean.
    expect(files['docker-compose.yml']).not.toMatch(/[&*]a\d/);
    expect(doc.services.migrate.restart).toBeUndefined();
  });

  it('mon-x4: four monolith replicas behind HAProxy on 8080', () => {
    const { files, doc } = compose('mon-x4');
    expect(doc.services.monolith.deploy).toEqual({ replicas: 4 });
    expect(doc.services.monolith.ports).toBeUndefined();
    expect(doc.services.haproxy).toMatchObject({ image: 'haproxy:2.6', ports: ['8080:8080', '127.0.0.1:8404:8404'] });
    expect(files['haproxy.cfg']).toContain('server-template monolith 4 monolith:3000 check resolvers dns');
  });

  it('msa-2-4-4: replica counts, internal balancers and upstream URLs', () => {
    const { files, doc } = compose('msa-2-4-4');
    expect(Object.fromEntries(['gateway', 'leftover', 'exercise'].map((r) => [r, doc.services[r].deploy?.replicas]))).toEqual({
      gateway: 2, leftover: 4, exercise: 4,
    });
    expect(processOf(doc.services.gateway.environment)).toMatchObject({ port: 3100, upstreams: { leftoverUrl: 'http://haproxy:8081', exerciseUrl: 'http://haproxy:8082' } });
    expect(doc.services.leftover).toMatchObject({ user: '10001:10001', security_opt: ['no-new-privileges:true'] });
    expect(files['haproxy.cfg']).toContain('server-template exercise 4 exercise:3300');
    expect(unresolvedHosts(doc)).toEqual([]);
  });

  it('msa-1-1 without replicated callees: direct upstreams, gateway published on 3100, no HAProxy', () => {
    const { doc } = compose('msa-1-1');
    expect(doc.services.haproxy).toBeUndefined();
    expect(doc.services.gateway.ports).toEqual(['3100:3100']);
    expect(processOf(doc.services.gateway.environment).upstreams).toEqual({ leftoverUrl: 'http://leftover:3200', exerciseUrl: 'http://exercise:3300' });
  });

  it('pattern presets (paper 003): the offloading gateway reaches the database and holds the token secret it checks logins with; every gateway learns its pattern', () => {
    const offloading = compose('msa-offloading-1-2').doc.services.gateway;
    expect(offloading.environment?.DATABASE_URL).toMatch(/^postgres:\/\/[^@]+@postgres:5432\//);
    expect(offloading.environment?.SG_JWT_SECRET).toMatch(/^\$\{SG_JWT_SECRET:/);
    expect(offloading.depends_on).toHaveProperty('postgres');
    expect(processOf(offloading.environment).spec.gateway.pattern).toBe('offloading');
    expect(processOf(compose('msa-aggregation-1-2').doc.services.gateway.environment).spec.gateway.pattern).toBe('aggregation');
  });

  it('broker and storage variants bring their servers with reachable URLs', () => {
    const { doc } = compose('msa-rabbitmq-minio-2-4-4');
    expect(doc.services.rabbitmq.image).toMatch(/^rabbitmq:/);
    expect(doc.services.minio.image).toMatch(/^minio\/minio/);
    expect(doc.services.exercise.environment).toMatchObject({
      AMQP_URL: 'amqp://shellgrade:${SG_AMQP_PASSWORD:?generated in .env next to docker-compose.yml}@rabbitmq:5672',
      MINIO_ENDPOINT: 'http://minio:9000',
    });
    expect(processOf(doc.services.exercise.environment).spec).toMatchObject({ dispatch: 'rabbitmq', storage: 'minio', broker: { prefetch: 1 } });
    expect(doc.services.exercise.depends_on).toMatchObject({ rabbitmq: { condition: 'service_healthy' }, minio: { condition: 'service_healthy' } });
    expect(unresolvedHosts(doc)).toEqual([]);
    const bull = compose('msa-bullmq-1-4').doc;
    expect(bull.services.redis.command).toContain('noeviction');
    const ref = '${SG_REDIS_PASSWORD:?generated in .env next to docker-compose.yml}';
    expect(bull.services.gateway.environment?.REDIS_URL).toBe(`redis://:${ref}@redis:6379`);
    // the server demands that password: nobody on the network reads or rewrites the queue
    expect(bull.services.redis.command).toEqual(expect.arrayContaining(['--requirepass', ref]));
  });

  it('refers to secrets; their generated values are only in .env, never a literal from this repository', () => {
    const { files } = compose('msa-rabbitmq-minio-2-4-4');
    const yml = files['docker-compose.yml'];
    expect(yml).not.toMatch(/shellgrade-dev-secret|shellgrade-secret|:shellgrade@|PASSWORD: shellgrade/);
    for (const value of Object.values(secrets)) expect(yml).not.toContain(value);
    expect(files['.env']).toContain(`SG_JWT_SECRET=${secrets.jwtSecret}`);
    expect(files['.env']).toContain(`SG_DB_PASSWORD=${secrets.dbPassword}`);
    expect(composeFiles(loadVariant('naked-mon'))['.env']).toBeUndefined();
  });
});
