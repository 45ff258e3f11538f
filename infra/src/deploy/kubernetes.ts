/**
 * Kubernetes manifests from a variant spec: a Deployment per role with the spec's replica
 * count, a ClusterIP Service per role (kube-proxy balances the callees, so no internal
 * HAProxy), an HAProxy Deployment in front of the entry role when the spec says
 * `entry: haproxy`, an Ingress to the entry, ConfigMaps for each role's environment, a Secret
 * with this installation's generated credentials (the servers read theirs by secretKeyRef), a migration Job and the servers as StatefulSets with volumes.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { gatewayIsHaproxy, HAPROXY_PORTS, ROLE_BASE_PORT, variantServers, type NativeServer, type Role, type VariantSpec } from '@shellgrade/variant';
import { haproxyModel, renderHaproxyConfig } from '../haproxy/config';
import { PACKAGE_VERSION, REPO_ROOT, RUN_DIR } from '../paths';
import { CONTAINER_ISOLATION_FALLBACK, GRADER_APPARMOR_PROFILE, GRADER_APPARMOR_TEXT, gradesInSandboxes, kubernetesConfinement } from './confinement';
import { K6_OPTIONS_FILE, k6TestRunOptions, k6TestRunYaml, type TestRunOptions } from './k6-testrun';
import { installationSecrets, type InstallationSecrets } from '../secrets';
import { appImage, MIGRATE_COMMAND, roleDeployments, SERVER_ACCOUNTS, SERVER_CONTAINER_PORTS, SERVER_IMAGES, serverEnv } from './container-plan';

export interface KubernetesOptions {
  namespace?: string;
  /** Application image reference (build it with the compose generator's Dockerfile and push it). */
  image?: string;
  /** ingressClassName; the cluster default when omitted. */
  ingressClass?: string;
  outDir?: string;
  /** This installation's generated secrets (run/secrets.json unless given). */
  secrets?: InstallationSecrets;
  /** The k6-operator TestRun written beside the manifests (k6-testrun.yaml). */
  load?: Omit<TestRunOptions, 'namespace'>;
}

type Manifest = Record<string, unknown>;

const SECRET = 'shellgrade-credentials';
/** Keys of the env that are credentials: they go to the Secret, not a ConfigMap. */
const SECRET_KEYS = ['DATABASE_URL', 'REDIS_URL', 'AMQP_URL', 'MINIO_ACCESS_KEY', 'MINIO_SECRET_KEY', 'SG_JWT_SECRET', 'SG_SCRAPE_TOKEN'];
/** The servers' own passwords, in the same Secret (read by the server containers only). */
const SERVER_SECRET_KEYS = {
  dbPassword: 'POSTGRES_PASSWORD',
  amqpPassword: 'RABBITMQ_DEFAULT_PASS',
  minioUser: 'MINIO_ROOT_USER',
  minioPassword: 'MINIO_ROOT_PASSWORD',
  redisPassword: 'REDIS_PASSWORD',
} as const;

/** An env entry read from the credentials Secret: the value never appears in the server's spec. */
const fromSecret = (name: string) => ({ name, valueFrom: { secretKeyRef: { name: SECRET, key: name } } });

function labels(spec: VariantSpec, component: string) {
  return { 'app.kubernetes.io/name': 'shellgrade', 'app.kubernetes.io/component': component, 'shellgrade/variant': spec.name };
}

function meta(spec: VariantSpec, ns: string, name: string, component: string) {
  return { name, namespace: ns, labels: labels(spec, component) };
}

function service(spec: VariantSpec, ns: string, name: string, component: string, ports: number[], headless = false): Manifest {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta(spec, ns, name, component),
    spec: {
      ...(headless ? { clusterIP: 'None' } : {}),
      selector: labels(spec, component),
      ports: ports.map((p) => ({ name: `p${p}`, port: p, targetPort: p })),
    },
  };
}

const httpProbe = (port: number, path = '/health') => ({ httpGet: { path, port }, periodSeconds: 5, timeoutSeconds: 2, failureThreshold: 3 });

function serverManifests(spec: VariantSpec, ns: string): Manifest[] {
  const { db, amqpUser } = SERVER_ACCOUNTS;
  const specs: Partial<Record<NativeServer, { env?: Record<string, string>; secretEnv?: string[]; args?: string[]; dataPath?: string }>> = {
    postgres: { env: { POSTGRES_DB: db.name, POSTGRES_USER: db.user, PGDATA: '/data/pgdata' }, secretEnv: ['POSTGRES_PASSWORD'], dataPath: '/data' },
    // $(REDIS_PASSWORD): Kubernetes expands the Secret-backed variable in args; the value is never in this file's spec.
    redis: { args: ['redis-server', '--appendonly', 'yes', '--maxmemory-policy', 'noeviction', '--requirepass', '$(REDIS_PASSWORD)'], secretEnv: ['REDIS_PASSWORD'], dataPath: '/data' },
    rabbitmq: { env: { RABBITMQ_DEFAULT_USER: amqpUser }, secretEnv: ['RABBITMQ_DEFAULT_PASS'], dataPath: '/var/lib/rabbitmq' },
    minio: { secretEnv: ['MINIO_ROOT_USER', 'MINIO_ROOT_PASSWORD'], args: ['server', '/data', '--console-address', ':9001'], dataPath: '/data' },
    jaeger: {},
  };
  return variantServers(spec)
    .filter((s): s is Exclude<NativeServer, 'haproxy'> => s !== 'haproxy')
    .flatMap((server) => {
      const s = specs[server] ?? {};
      const ports = SERVER_CONTAINER_PORTS[server];
      const container = {
        name: server,
        image: SERVER_IMAGES[server],
        ...(s.args ? { args: s.args } : {}),
        ...(s.env || s.secretEnv
          ? { env: [...Object.entries(s.env ?? {}).map(([name, value]) => ({ name, value })), ...(s.secretEnv ?? []).map(fromSecret)] }
          : {}),
        ports: ports.map((p) => ({ containerPort: p })),
        ...(s.dataPath ? { volumeMounts: [{ name: 'data', mountPath: s.dataPath }] } : {}),
      };
      const workload: Manifest = s.dataPath
        ? {
            apiVersion: 'apps/v1',
            kind: 'StatefulSet',
            metadata: meta(spec, ns, server, server),
            spec: {
              serviceName: server,
              replicas: 1,
              selector: { matchLabels: labels(spec, server) },
              template: { metadata: { labels: labels(spec, server) }, spec: { containers: [container] } },
              volumeClaimTemplates: [
                { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '5Gi' } } } },
              ],
            },
          }
        : {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            metadata: meta(spec, ns, server, server),
            spec: {
              replicas: 1,
              selector: { matchLabels: labels(spec, server) },
              template: { metadata: { labels: labels(spec, server) }, spec: { containers: [container] } },
            },
          };
      return [workload, service(spec, ns, server, server, ports)];
    });
}

export function kubernetesManifests(spec: VariantSpec, options: KubernetesOptions = {}): Manifest[] {
  const ns = options.namespace ?? 'shellgrade';
  const image = options.image ?? appImage(PACKAGE_VERSION);
  const upstreams = { leftoverUrl: `http://leftover:${ROLE_BASE_PORT.leftover}`, exerciseUrl: `http://exercise:${ROLE_BASE_PORT.exercise}` };
  const secrets = options.secrets ?? installationSecrets();
  const roles = roleDeployments(spec, upstreams, secrets);
  const secretEnv: Record<string, string> = { ...serverEnv(spec, secrets), SG_JWT_SECRET: secrets.jwtSecret, SG_SCRAPE_TOKEN: secrets.scrapeToken };
  const serverSecrets = Object.fromEntries(Object.entries(SERVER_SECRET_KEYS).map(([key, name]) => [name, secrets[key as keyof typeof SERVER_SECRET_KEYS]]));
  const manifests: Manifest[] = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { 'app.kubernetes.io/name': 'shellgrade' } } },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: meta(spec, ns, SECRET, 'credentials'),
      type: 'Opaque',
      // Generated per installation (run/secrets.json); this file is therefore written owner-only.
      stringData: { ...Object.fromEntries(Object.entries(secretEnv).filter(([k]) => SECRET_KEYS.includes(k))), ...serverSecrets },
    },
    ...serverManifests(spec, ns),
    {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: meta(spec, ns, 'shellgrade-migrate', 'migrate'),
      spec: {
        backoffLimit: 10,
        template: {
          metadata: { labels: labels(spec, 'migrate') },
          spec: {
            restartPolicy: 'OnFailure',
            containers: [{ name: 'migrate', image, command: MIGRATE_COMMAND, envFrom: [{ secretRef: { name: SECRET } }] }],
          },
        },
      },
    },
  ];
  for (const r of roles) {
    const configMap = `shellgrade-${r.role}-env`;
    const plainEnv = Object.fromEntries(Object.entries(r.env).filter(([k]) => !SECRET_KEYS.includes(k)));
    manifests.push(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(spec, ns, configMap, r.role), data: plainEnv },
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: {
          ...meta(spec, ns, r.role, r.role),
          ...(r.grades && gradesInSandboxes(spec) ? { annotations: { 'shellgrade.dev/isolation-fallback': CONTAINER_ISOLATION_FALLBACK } } : {}),
        },
        spec: {
          replicas: r.replicas,
          selector: { matchLabels: labels(spec, r.role) },
          template: {
            metadata: { labels: labels(spec, r.role) },
            spec: {
              containers: [
                {
                  name: r.role,
                  image,
                  command: r.command,
                  ports: [{ containerPort: r.port, name: 'http' }],
                  envFrom: [{ configMapRef: { name: configMap } }, { secretRef: { name: SECRET } }],
                  readinessProbe: httpProbe(r.port),
                  livenessProbe: { ...httpProbe(r.port), initialDelaySeconds: 20, failureThreshold: 6 },
                  resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { memory: '768Mi' } },
                  securityContext: kubernetesConfinement(r.grades && gradesInSandboxes(spec)),
                },
              ],
            },
          },
        },
      },
      service(spec, ns, r.role, r.role, [r.port]),
    );
  }

  const entryRole: Role = spec.topology === 'monolith' ? 'monolith' : 'gateway';
  let entryService = { name: entryRole as string, port: ROLE_BASE_PORT[entryRole] };
  // HAProxy in front of the entry replicas (entry haproxy), or as the gateway itself (gateway.engine
  // haproxy: it routes to the callees' Services; the Service named gateway leads to it).
  const haproxyAs = spec.entry === 'haproxy' ? 'entry' : gatewayIsHaproxy(spec) ? 'gateway' : undefined;
  if (haproxyAs) {
    const headless = `${entryRole}-pods`;
    const haproxyPort = haproxyAs === 'entry' ? HAPROXY_PORTS.entry : ROLE_BASE_PORT.gateway;
    const cfg = renderHaproxyConfig(
      haproxyModel(spec, {
        kind: 'dns',
        label: 'Kubernetes',
        only: [haproxyAs],
        // The Ingress is the cluster's entry: it sets the forwarding headers, HAProxy behind it keeps them.
        entryBehind: 'the Ingress',
        address: (f) => `${f.name === 'entry' ? headless : f.role}.${ns}.svc.cluster.local:${ROLE_BASE_PORT[f.role]}`,
      }),
    );
    manifests.push(
      haproxyAs === 'entry'
        ? service(spec, ns, headless, entryRole, [ROLE_BASE_PORT[entryRole]], true)
        : service(spec, ns, 'gateway', 'haproxy', [haproxyPort]),
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(spec, ns, 'haproxy-config', 'haproxy'), data: { 'haproxy.cfg': cfg } },
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: meta(spec, ns, 'haproxy', 'haproxy'),
        spec: {
          replicas: 1,
          selector: { matchLabels: labels(spec, 'haproxy') },
          template: {
            metadata: { labels: labels(spec, 'haproxy') },
            spec: {
              containers: [
                {
                  name: 'haproxy',
                  image: SERVER_IMAGES.haproxy,
                  ports: [{ containerPort: haproxyPort }, { containerPort: HAPROXY_PORTS.stats }],
                  volumeMounts: [{ name: 'config', mountPath: '/usr/local/etc/haproxy', readOnly: true }],
                  readinessProbe: httpProbe(HAPROXY_PORTS.stats, '/healthz'),
                },
              ],
              volumes: [{ name: 'config', configMap: { name: 'haproxy-config' } }],
            },
          },
        },
      },
      service(spec, ns, 'haproxy', 'haproxy', [haproxyPort, HAPROXY_PORTS.stats]),
    );
    if (haproxyAs === 'entry') entryService = { name: 'haproxy', port: HAPROXY_PORTS.entry };
  }
  manifests.push({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: meta(spec, ns, 'shellgrade', 'entry'),
    spec: {
      ...(options.ingressClass ? { ingressClassName: options.ingressClass } : {}),
      rules: [
        {
          http: {
            paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: entryService.name, port: { number: entryService.port } } } }],
          },
        },
      ],
    },
  });
  return manifests;
}

export function kubernetesYaml(spec: VariantSpec, options: KubernetesOptions = {}): string {
  const header = `# Generated by \`npm run variant -- k8s ${spec.name}\` from infra/variants/${spec.name}.yaml; do not edit.\n# kubectl apply -f this file (namespace ${options.namespace ?? 'shellgrade'}).\n`;
  // YAML 1.1 quoting: kubectl's parser reads a bare `yes` (redis-server --appendonly yes) as true.
  return header + kubernetesManifests(spec, options).map((m) => stringify(m, { version: '1.1', lineWidth: 0, aliasDuplicateObjects: false })).join('---\n');
}

/** Writes run/deploy/<variant>/k8s/shellgrade.yaml, k6-testrun.yaml and its k6-options.json (or into outDir). */
export function writeKubernetes(spec: VariantSpec, options: KubernetesOptions = {}): string[] {
  const dir = options.outDir ?? join(RUN_DIR, 'deploy', spec.name, 'k8s');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'shellgrade.yaml');
  // It holds the installation's generated secrets: owner-only, also when it already existed.
  writeFileSync(file, kubernetesYaml(spec, options), { mode: 0o600 });
  chmodSync(file, 0o600);
  const load = join(dir, 'k6-testrun.yaml');
  const loadOptions = { ...options.load, namespace: options.namespace };
  const k6Options = resolve(dir, K6_OPTIONS_FILE);
  writeFileSync(k6Options, JSON.stringify(k6TestRunOptions(spec, REPO_ROOT, loadOptions), null, 2) + '\n');
  writeFileSync(load, k6TestRunYaml(spec, loadOptions, k6Options));
  if (!gradesInSandboxes(spec)) return [file, load, k6Options];
  // Grading pods name this AppArmor profile (Localhost): load it on every node that may run them.
  const profile = join(dir, GRADER_APPARMOR_PROFILE);
  writeFileSync(profile, GRADER_APPARMOR_TEXT);
  return [file, load, k6Options, profile];
}
