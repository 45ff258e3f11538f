/**
 * docker-compose.yml from a variant spec: the official server images, one application image,
 * one compose service per role with `deploy.replicas`, HAProxy (same template, replicas found
 * through Docker's DNS) wherever the native variant has one, and `restart: always` as in the
 * paper's setup.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { stringify } from 'yaml';
import { HAPROXY_PORTS, entryUrl, gatewayIsHaproxy, needsHaproxy, replicaCount, ROLE_BASE_PORT, variantServers, type VariantSpec } from '@shellgrade/variant';
import { haproxyModel, renderHaproxyConfig } from '../haproxy/config';
import { PACKAGE_VERSION, REPO_ROOT, RUN_DIR } from '../paths';
import { installationSecrets, type InstallationSecrets } from '../secrets';
import { appImage, internalPort, MIGRATE_COMMAND, roleDeployments, SERVER_ACCOUNTS, SERVER_IMAGES, serverEnv, type DeploySecrets } from './container-plan';
import { composeConfinement, CONTAINER_ISOLATION_FALLBACK, GRADER_APPARMOR_PROFILE, GRADER_APPARMOR_TEXT, gradesInSandboxes } from './confinement';
import { DOCKERFILE, DOCKERIGNORE } from './dockerfile';

type ComposeService = Record<string, unknown>;

const healthcheck = (test: string[]) => ({ test, interval: '5s', timeout: '3s', retries: 20, start_period: '5s' });

/** The .env variable of each secret; the compose file only refers to them. */
const SECRET_VARS: Record<keyof DeploySecrets, string> = {
  jwtSecret: 'SG_JWT_SECRET',
  dbPassword: 'SG_DB_PASSWORD',
  amqpPassword: 'SG_AMQP_PASSWORD',
  minioUser: 'SG_MINIO_USER',
  minioPassword: 'SG_MINIO_PASSWORD',
  redisPassword: 'SG_REDIS_PASSWORD',
  scrapeToken: 'SG_SCRAPE_TOKEN',
};

/** `${VAR:?...}`: compose refuses to start when the .env written beside the file is missing. */
const REFERENCES = Object.fromEntries(
  Object.entries(SECRET_VARS).map(([key, name]) => [key, `\${${name}:?generated in .env next to docker-compose.yml}`]),
) as DeploySecrets;

/** The .env compose reads: this installation's generated secrets (run/secrets.json). */
export function composeEnvFile(secrets: InstallationSecrets): string {
  const lines = (Object.keys(SECRET_VARS) as (keyof DeploySecrets)[]).map((key) => `${SECRET_VARS[key]}=${secrets[key]}`);
  return ['# Generated per installation by `npm run variant -- compose`; keep it private (mode 600).', ...lines, ''].join('\n');
}

function serverServices(spec: VariantSpec): Record<string, ComposeService> {
  const { db, amqpUser } = SERVER_ACCOUNTS;
  const secrets = REFERENCES;
  const services: Record<string, ComposeService> = {};
  for (const server of variantServers(spec)) {
    switch (server) {
      case 'postgres':
        services.postgres = {
          image: SERVER_IMAGES.postgres,
          environment: { POSTGRES_DB: db.name, POSTGRES_USER: db.user, POSTGRES_PASSWORD: secrets.dbPassword },
          volumes: ['pgdata:/var/lib/postgresql/data'],
          healthcheck: healthcheck(['CMD-SHELL', `pg_isready -U ${db.user} -d ${db.name}`]),
          restart: 'always',
        };
        break;
      case 'redis':
        services.redis = {
          image: SERVER_IMAGES.redis,
          // BullMQ needs its keys kept: no eviction, append-only persistence. A password: every
          // container on the network could otherwise read and rewrite the grading queue.
          command: ['redis-server', '--appendonly', 'yes', '--maxmemory-policy', 'noeviction', '--requirepass', secrets.redisPassword],
          environment: { REDISCLI_AUTH: secrets.redisPassword },
          volumes: ['redisdata:/data'],
          healthcheck: healthcheck(['CMD', 'redis-cli', 'ping']),
          restart: 'always',
        };
        break;
      case 'rabbitmq':
        services.rabbitmq = {
          image: SERVER_IMAGES.rabbitmq,
          environment: { RABBITMQ_DEFAULT_USER: amqpUser, RABBITMQ_DEFAULT_PASS: secrets.amqpPassword },
          volumes: ['rabbitmqdata:/var/lib/rabbitmq'],
          healthcheck: healthcheck(['CMD', 'rabbitmq-diagnostics', '-q', 'ping']),
          restart: 'always',
        };
        break;
      case 'minio':
        services.minio = {
          image: SERVER_IMAGES.minio,
          command: ['server', '/data', '--console-address', ':9001'],
          environment: { MINIO_ROOT_USER: secrets.minioUser, MINIO_ROOT_PASSWORD: secrets.minioPassword },
          volumes: ['miniodata:/data'],
          healthcheck: healthcheck(['CMD', 'mc', 'ready', 'local']),
          restart: 'always',
        };
        break;
      case 'jaeger':
        services.jaeger = { image: SERVER_IMAGES.jaeger, ports: [internalPort(16686)], restart: 'always' };
        break;
      case 'haproxy':
        break; // after the roles, it depends on them
    }
  }
  return services;
}

export interface ComposeFiles {
  'docker-compose.yml': string;
  /** Only with `secrets`: their values for compose's interpolation (the yml holds references). */
  '.env'?: string;
  Dockerfile: string;
  'Dockerfile.dockerignore': string;
  'haproxy.cfg'?: string;
  /** With bubblewrap graders: the AppArmor profile their containers run under (load it on the host). */
  'shellgrade-grader'?: string;
}

/**
 * The files as strings. `build.context` is the repo root relative to the output folder and
 * `build.dockerfile` the generated Dockerfile relative to that context.
 */
export function composeFiles(spec: VariantSpec, build = { context: '.', dockerfile: 'Dockerfile' }, secrets?: InstallationSecrets): ComposeFiles {
  const balanced = (role: 'leftover' | 'exercise') => replicaCount(spec, role) > 1;
  const upstreams = {
    leftoverUrl: balanced('leftover') ? `http://haproxy:${HAPROXY_PORTS.leftover}` : `http://leftover:${ROLE_BASE_PORT.leftover}`,
    exerciseUrl: balanced('exercise') ? `http://haproxy:${HAPROXY_PORTS.exercise}` : `http://exercise:${ROLE_BASE_PORT.exercise}`,
  };
  const image = appImage(PACKAGE_VERSION);
  const servers = serverServices(spec);
  const healthyServers = Object.fromEntries(Object.keys(servers).filter((s) => s !== 'jaeger').map((s) => [s, { condition: 'service_healthy' }]));

  const services: Record<string, ComposeService> = {
    ...servers,
    migrate: {
      image,
      build,
      command: MIGRATE_COMMAND,
      environment: { DATABASE_URL: serverEnv(spec, REFERENCES).DATABASE_URL },
      depends_on: { postgres: { condition: 'service_healthy' } },
    },
  };
  const roles = roleDeployments(spec, upstreams, REFERENCES);
  for (const r of roles) {
    const direct = spec.entry === 'direct' && (r.role === 'monolith' || r.role === 'gateway');
    services[r.role] = {
      image,
      build,
      command: r.command,
      environment: r.env,
      expose: [String(r.port)],
      ...(direct ? { ports: [`${r.port}:${r.port}`] } : {}),
      deploy: { replicas: r.replicas },
      // The paper's containers were "always automatically restarted after a failure".
      restart: 'always',
      ...composeConfinement(r.grades && gradesInSandboxes(spec)),
      healthcheck: healthcheck(['CMD', 'node', '-e', `fetch('http://127.0.0.1:${r.port}/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))`]),
      depends_on: { ...healthyServers, migrate: { condition: 'service_completed_successfully' } },
    };
  }
  const files: ComposeFiles = { 'docker-compose.yml': '', Dockerfile: DOCKERFILE, 'Dockerfile.dockerignore': DOCKERIGNORE };
  if (secrets) files['.env'] = composeEnvFile(secrets);
  if (gradesInSandboxes(spec)) files[GRADER_APPARMOR_PROFILE] = GRADER_APPARMOR_TEXT;
  if (needsHaproxy(spec)) {
    files['haproxy.cfg'] = renderHaproxyConfig(
      haproxyModel(spec, { kind: 'dns', label: 'docker compose', address: (f) => `${f.role}:${ROLE_BASE_PORT[f.role]}` }),
    );
    const gatewayPort = ROLE_BASE_PORT.gateway;
    const published = [
      ...(spec.entry === 'haproxy' ? [`${HAPROXY_PORTS.entry}:${HAPROXY_PORTS.entry}`] : []),
      ...(gatewayIsHaproxy(spec) ? [`${gatewayPort}:${gatewayPort}`] : []),
      internalPort(HAPROXY_PORTS.stats),
    ];
    services.haproxy = {
      image: SERVER_IMAGES.haproxy,
      volumes: ['./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro'],
      ports: published,
      depends_on: Object.fromEntries(roles.map((r) => [r.role, { condition: 'service_started' }])),
      restart: 'always',
    };
  }
  const volumes = Object.fromEntries(
    Object.values(servers)
      .flatMap((s) => (s.volumes as string[] | undefined) ?? [])
      .map((v) => [v.split(':')[0], {}]),
  );
  const doc = {
    name: `shellgrade-${spec.name}`,
    ...(gradesInSandboxes(spec) ? { 'x-shellgrade-isolation': CONTAINER_ISOLATION_FALLBACK } : {}),
    services,
    ...(Object.keys(volumes).length ? { volumes } : {}),
  };
  const header = [
    `# Generated by \`npm run variant -- compose ${spec.name}\` from infra/variants/${spec.name}.yaml; do not edit.`,
    `# ${spec.description.replace(/\s+/g, ' ')}`,
    `# Entry: ${entryUrl(spec, 'localhost')}. Start: docker compose up -d --build`,
    '',
  ].join('\n');
  files['docker-compose.yml'] = header + stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false });
  return files;
}

/** Writes the files; default folder run/deploy/<variant>/compose. */
export function writeCompose(spec: VariantSpec, outDir?: string, secrets: InstallationSecrets = installationSecrets()): string[] {
  const dir = outDir ?? join(RUN_DIR, 'deploy', spec.name, 'compose');
  mkdirSync(dir, { recursive: true });
  const build = { context: relative(dir, REPO_ROOT) || '.', dockerfile: join(relative(REPO_ROOT, dir), 'Dockerfile') };
  const files = composeFiles(spec, build, secrets);
  return Object.entries(files).map(([name, content]) => {
    const file = join(dir, name);
    // .env holds the secrets: owner-only, also when it already existed.
    writeFileSync(file, content as string, { mode: name === '.env' ? 0o600 : 0o644 });
    if (name === '.env') chmodSync(file, 0o600);
    return file;
  });
}
