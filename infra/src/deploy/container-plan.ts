/**
 * What the docker-compose and Kubernetes generators share: images, in-cluster addresses of
 * the servers, and each role's environment derived from the same spec as the native launcher.
 */
import {
  replicaCount,
  ROLE_BASE_PORT,
  serviceEnv,
  variantRoles,
  variantServers,
  type NativeServer,
  type Role,
  type Upstreams,
  type VariantSpec,
} from '@shellgrade/variant';
import type { InstallationSecrets } from '../secrets';
import { TELEMETRY_PRELOAD } from '../paths';
import { SERVICE_V8_FLAGS } from '../service-node-flags';

/** The roles whose processes grade (the monolith, the exercise service). */
const gradesIn = (role: Role): boolean => role === 'monolith' || role === 'exercise';

/** One image for every service (built from the repo by the generated Dockerfile). */
export const APP_IMAGE = 'shellgrade/app';

/** The app image's tag: the release it is built from, never `latest` (a redeploy must not change code silently). */
export function appImage(version: string): string {
  return `${APP_IMAGE}:${version}`;
}

/** Where a server's own UI (Jaeger, HAProxy stats) is published: the host's loopback only, not every interface. */
export function internalPort(port: number): string {
  return `127.0.0.1:${port}:${port}`;
}

/**
 * Official images of the servers, each at a fixed version (never `latest`: a redeploy must not
 * change a server silently); haproxy matches the native 2.6 so one template serves both. MinIO
 * publishes dated releases only: the last one with an image.
 */
export const SERVER_IMAGES: Record<NativeServer, string> = {
  postgres: 'postgres:15-bookworm',
  redis: 'redis:7-bookworm',
  rabbitmq: 'rabbitmq:3.13-management',
  minio: 'minio/minio:RELEASE.2025-09-07T16-13-09Z',
  jaeger: 'jaegertracing/jaeger:2.13.0',
  haproxy: 'haproxy:2.6',
};

/** Ports inside the container network (the images' defaults, not the native loopback plan). */
export const SERVER_CONTAINER_PORTS: Record<NativeServer, number[]> = {
  postgres: [5432],
  redis: [6379],
  rabbitmq: [5672, 15672],
  minio: [9000, 9001],
  jaeger: [16686, 4317, 4318],
  haproxy: [8080, 8081, 8082, 8404],
};

/** Account names of the containerised servers (not secret); their passwords are per installation. */
export const SERVER_ACCOUNTS = { db: { name: 'shellgrade', user: 'shellgrade' }, amqpUser: 'shellgrade' };

/**
 * The secret values a deployment file carries: generated ones (Kubernetes Secret) or references
 * resolved at deploy time (compose `${VAR}` from its .env) — never a literal from this repository.
 */
export type DeploySecrets = Pick<InstallationSecrets, 'jwtSecret' | 'dbPassword' | 'amqpPassword' | 'minioUser' | 'minioPassword' | 'redisPassword' | 'scrapeToken'>;

/** Client URLs of the servers by their service names (compose and Kubernetes DNS alike). */
export function serverEnv(spec: VariantSpec, secrets: DeploySecrets): Record<string, string> {
  const servers = variantServers(spec);
  const { db, amqpUser } = SERVER_ACCOUNTS;
  const env: Record<string, string> = { DATABASE_URL: `postgres://${db.user}:${secrets.dbPassword}@postgres:5432/${db.name}` };
  if (servers.includes('redis')) env.REDIS_URL = `redis://:${secrets.redisPassword}@redis:6379`;
  if (servers.includes('rabbitmq')) env.AMQP_URL = `amqp://${amqpUser}:${secrets.amqpPassword}@rabbitmq:5672`;
  if (servers.includes('minio')) Object.assign(env, { MINIO_ENDPOINT: 'http://minio:9000', MINIO_ACCESS_KEY: secrets.minioUser, MINIO_SECRET_KEY: secrets.minioPassword });
  if (servers.includes('jaeger')) env.OTEL_EXPORTER_OTLP_ENDPOINT = 'http://jaeger:4318';
  return env;
}

export interface RoleDeployment {
  role: Role;
  replicas: number;
  port: number;
  /** Runs graders (needs the sandbox's namespaces when isolation is bwrap). */
  grades: boolean;
  command: string[];
  env: Record<string, string>;
}

/**
 * Every role's container: listens on its role's base port on all interfaces; replicas share
 * one definition (their instance id comes from the hostname, not SG_REPLICA).
 */
export function roleDeployments(spec: VariantSpec, upstreams: Upstreams, secrets: DeploySecrets): RoleDeployment[] {
  return variantRoles(spec).map((role) => {
    const port = ROLE_BASE_PORT[role];
    const env: Record<string, string> = {
      // Deploying these files accepts what falls back in a container (CONTAINER_ISOLATION_FALLBACK, said in them).
      ...serviceEnv(spec, role, 0, { host: '0.0.0.0', port, upstreams, ...(gradesIn(role) ? { acceptWeakIsolation: true as const } : {}) }),
      ...serverEnv(spec, secrets),
      SG_JWT_SECRET: secrets.jwtSecret,
      SG_SCRAPE_TOKEN: secrets.scrapeToken,
    };
    env.OTEL_RESOURCE_ATTRIBUTES = `deployment.environment=${spec.name}`;
    return {
      role,
      replicas: replicaCount(spec, role),
      port,
      grades: gradesIn(role),
      // The preload starts tracing only when the spec traces (same as under pm2).
      command: ['node', '--max-old-space-size=512', ...SERVICE_V8_FLAGS, '--require', TELEMETRY_PRELOAD, `dist/services/${role}/src/main.js`],
      env: { ...env, ...spec.env },
    };
  });
}

export const MIGRATE_COMMAND = ['node', 'dist/libs/admin-cli/src/db.js', 'migrate'];
