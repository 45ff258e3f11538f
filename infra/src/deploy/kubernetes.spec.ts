import { parseAllDocuments } from 'yaml';
import { loadVariant } from '@shellgrade/variant';
import { generateSecrets } from '../secrets';
import { kubernetesYaml } from './kubernetes';
import { decodeProcessConfig } from '@shellgrade/variant';

const processOf = (env: Record<string, string> | undefined) => decodeProcessConfig(env?.SG_PROCESS ?? '');

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

// Generated here: the tests never read or create this machine's run/secrets.json.
const secrets = generateSecrets();
const manifests = (name: string, options = {}) =>
  parseAllDocuments(kubernetesYaml(loadVariant(name), { secrets, ...options })).map((d) => d.toJS() as K8sObject);
const find = (objs: K8sObject[], kind: string, name: string) => objs.find((o) => o.kind === kind && o.metadata.name === name);

describe('Kubernetes generator', () => {
  it('msa-2-4-4: Deployments with the replica counts, Services on the role ports, HAProxy entry and Ingress', () => {
    const objs = manifests('msa-2-4-4');
    expect(objs.every((o) => o.kind === 'Namespace' || o.metadata.namespace === 'shellgrade')).toBe(true);
    for (const [role, replicas, port] of [['gateway', 2, 3100], ['leftover', 4, 3200], ['exercise', 4, 3300]] as const) {
      const deploy = find(objs, 'Deployment', role)!;
      expect(deploy.spec.replicas).toBe(replicas);
      const container = deploy.spec.template.spec.containers[0];
      expect(container.image).toBe('shellgrade/app:0.1.0');
      expect(container.ports[0].containerPort).toBe(port);
      expect(container.readinessProbe.httpGet).toEqual({ path: '/health', port });
      expect(container.envFrom).toEqual([{ configMapRef: { name: `shellgrade-${role}-env` } }, { secretRef: { name: 'shellgrade-credentials' } }]);
      // the Service selects the Deployment's pods
      const svc = find(objs, 'Service', role)!;
      expect(svc.spec.ports[0].port).toBe(port);
      expect(deploy.spec.template.metadata.labels).toMatchObject(svc.spec.selector);
      expect(processOf(find(objs, 'ConfigMap', `shellgrade-${role}-env`)!.data as Record<string, string>)).toMatchObject({ role, port });
    }
    // kube-proxy balances callees: the gateway talks to the Services
    expect(processOf(find(objs, 'ConfigMap', 'shellgrade-gateway-env')!.data as Record<string, string>).upstreams).toEqual({
      leftoverUrl: 'http://leftover:3200', exerciseUrl: 'http://exercise:3300',
    });
    expect(find(objs, 'ConfigMap', 'shellgrade-gateway-env')!.data).not.toHaveProperty('DATABASE_URL');
    expect(find(objs, 'Secret', 'shellgrade-credentials')!.stringData).toMatchObject({
      DATABASE_URL: `postgres://shellgrade:${secrets.dbPassword}@postgres:5432/shellgrade`,
      SG_JWT_SECRET: secrets.jwtSecret,
      POSTGRES_PASSWORD: secrets.dbPassword,
    });
    // The server reads its password from the Secret; no literal in its spec.
    expect(find(objs, 'StatefulSet', 'postgres')!.spec.template.spec.containers[0].env).toContainEqual({
      name: 'POSTGRES_PASSWORD', valueFrom: { secretKeyRef: { name: 'shellgrade-credentials', key: 'POSTGRES_PASSWORD' } },
    });
    const haproxyCfg = find(objs, 'ConfigMap', 'haproxy-config')!.data!['haproxy.cfg'];
    expect(haproxyCfg).toContain('server-template gateway 2 gateway-pods.shellgrade.svc.cluster.local:3100');
    expect(haproxyCfg).not.toContain('fe_exercise');
    expect(find(objs, 'Service', 'gateway-pods')!.spec.clusterIP).toBe('None');
    expect(find(objs, 'Deployment', 'haproxy')!.spec.template.spec.containers[0].image).toBe('haproxy:2.6');
    const ingress = find(objs, 'Ingress', 'shellgrade')!;
    expect(ingress.spec.rules[0].http.paths[0].backend.service).toEqual({ name: 'haproxy', port: { number: 8080 } });
    expect(find(objs, 'StatefulSet', 'postgres')!.spec.template.spec.containers[0].image).toBe('postgres:15-bookworm');
    expect(find(objs, 'Job', 'shellgrade-migrate')!.spec.template.spec.containers[0].command).toEqual(['node', 'dist/libs/admin-cli/src/db.js', 'migrate']);
  });

  it('naked-mon: the Ingress goes straight to the monolith Service; options are honoured', () => {
    const objs = manifests('naked-mon', { namespace: 'grading', image: 'registry.example/shellgrade:1.0', ingressClass: 'nginx' });
    expect(find(objs, 'Deployment', 'haproxy')).toBeUndefined();
    expect(find(objs, 'Namespace', 'grading')).toBeDefined();
    const mono = find(objs, 'Deployment', 'monolith')!;
    expect(mono.metadata.namespace).toBe('grading');
    expect(mono.spec.replicas).toBe(1);
    expect(mono.spec.template.spec.containers[0].image).toBe('registry.example/shellgrade:1.0');
    // naked-mon grades in bubblewrap sandboxes: root with SYS_ADMIN, never unconfined
    expect(mono.spec.template.spec.containers[0].securityContext).toMatchObject({ capabilities: { add: ['SYS_ADMIN'] }, seccompProfile: { type: 'RuntimeDefault' } });
    const ingress = find(objs, 'Ingress', 'shellgrade')!;
    expect(ingress.spec.ingressClassName).toBe('nginx');
    expect(ingress.spec.rules[0].http.paths[0].backend.service).toEqual({ name: 'monolith', port: { number: 3000 } });
  });

  it('confinement is never disabled: RuntimeDefault seccomp everywhere, root with SYS_ADMIN only for bubblewrap graders under their own AppArmor profile', () => {
    const objs = manifests('msa-rabbitmq-2-4-4');
    const container = (role: string) => find(objs, 'Deployment', role)!.spec.template.spec.containers[0];
    for (const role of ['gateway', 'leftover', 'exercise']) {
      expect(container(role).securityContext).toMatchObject({ allowPrivilegeEscalation: false, seccompProfile: { type: 'RuntimeDefault' } });
    }
    for (const role of ['gateway', 'leftover']) expect(container(role).securityContext).toMatchObject({ runAsNonRoot: true, capabilities: { drop: ['ALL'] } });
    expect(container('exercise').securityContext).toMatchObject({
      capabilities: { add: ['SYS_ADMIN'] },
      appArmorProfile: { type: 'Localhost', localhostProfile: 'shellgrade-grader' },
    });
    expect(JSON.stringify(objs)).not.toMatch(/Unconfined|"privileged":true/);
  });

  it('every Service a URL names exists', () => {
    const objs = manifests('msa-rabbitmq-minio-2-4-4');
    const services = new Set(objs.filter((o) => o.kind === 'Service').map((o) => o.metadata.name));
    const env = objs.flatMap((o) => Object.values({ ...(o.data ?? {}), ...(o.stringData ?? {}) }));
    const hosts = env.flatMap((v) => [...v.matchAll(/^[a-z]+:\/\/(?:[^@/]*@)?([a-z0-9-]+)(?::\d+)?/g)].map((m) => m[1]));
    expect(hosts.length).toBeGreaterThan(4);
    expect(hosts.filter((h) => !services.has(h))).toEqual([]);
    // redis: four exercise replicas share their rate-limit counters (auth.rateLimits.store).
    expect(services).toEqual(new Set(['postgres', 'redis', 'rabbitmq', 'minio', 'gateway', 'leftover', 'exercise', 'gateway-pods', 'haproxy']));
  });

  it('carries generated secrets only: no password or token secret published in this repository', () => {
    for (const name of ['naked-mon', 'msa-rabbitmq-minio-2-4-4', 'msa-bullmq-1-4']) {
      const yaml = kubernetesYaml(loadVariant(name), { secrets });
      expect(yaml).not.toMatch(/shellgrade-dev-secret|shellgrade-secret|:shellgrade@/);
      expect(kubernetesYaml(loadVariant(name), { secrets: generateSecrets() })).not.toBe(yaml);
    }
  });

  it('Redis demands the generated password, read from the Secret; clients carry it in REDIS_URL', () => {
    const objs = manifests('msa-bullmq-1-4');
    const redis = find(objs, 'StatefulSet', 'redis')!.spec.template.spec.containers[0];
    expect(redis.args).toEqual(expect.arrayContaining(['--requirepass', '$(REDIS_PASSWORD)']));
    expect(redis.env).toContainEqual({ name: 'REDIS_PASSWORD', valueFrom: { secretKeyRef: { name: 'shellgrade-credentials', key: 'REDIS_PASSWORD' } } });
    const stored = find(objs, 'Secret', 'shellgrade-credentials')!.stringData!;
    expect(stored.REDIS_PASSWORD).toBe(secrets.redisPassword);
    expect(stored.REDIS_URL).toBe(`redis://:${secrets.redisPassword}@redis:6379`);
  });
});
