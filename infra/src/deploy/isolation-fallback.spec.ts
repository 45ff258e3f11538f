/**
 * Containers have no per-grading control groups: the generated files say so
 * plainly, and only the grading roles of a bubblewrap variant accept it in their process config.
 */
import { parse, parseAllDocuments } from 'yaml';
import { decodeProcessConfig, loadVariant } from '@shellgrade/variant';
import { generateSecrets } from '../secrets';
import { composeFiles } from './compose';
import { CONTAINER_ISOLATION_FALLBACK } from './confinement';
import { kubernetesYaml } from './kubernetes';

const secrets = generateSecrets();
type Env = Record<string, string>;
const accepts = (env: Env | undefined) => decodeProcessConfig(env?.SG_PROCESS ?? '').acceptWeakIsolation === true;

describe('what falls back in a container', () => {
  it('compose: said at the top, accepted by the grading roles only', () => {
    const doc = parse(composeFiles(loadVariant('msa-1-2'), { context: '.', dockerfile: 'Dockerfile' }, secrets)['docker-compose.yml']) as {
      'x-shellgrade-isolation'?: string;
      services: Record<string, { environment?: Env }>;
    };
    expect(doc['x-shellgrade-isolation']).toBe(CONTAINER_ISOLATION_FALLBACK);
    expect({ exercise: accepts(doc.services.exercise.environment), gateway: accepts(doc.services.gateway.environment), leftover: accepts(doc.services.leftover.environment) })
      .toEqual({ exercise: true, gateway: false, leftover: false });
  });

  it('Kubernetes: an annotation on the grading Deployment, and its ConfigMap accepts it', () => {
    const objects = parseAllDocuments(kubernetesYaml(loadVariant('naked-mon'), { secrets })).map((d) => d.toJS()) as {
      kind: string;
      metadata: { name: string; annotations?: Record<string, string> };
      data?: Env;
    }[];
    const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'monolith');
    const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'shellgrade-monolith-env');
    expect(deployment?.metadata.annotations?.['shellgrade.dev/isolation-fallback']).toBe(CONTAINER_ISOLATION_FALLBACK);
    expect(accepts(config?.data)).toBe(true);
  });
});
