/**
 * Generated deployment files checked offline against their published schemas: docker-compose files
 * against the Compose Specification's JSON schema (shipped by the dclint package), Kubernetes
 * manifests with kubernetes-validate (PyPI, installed by scripts/setup.sh; schemas bundled, no
 * cluster), and the k6-operator TestRun against the schema we keep for its CRD
 * (infra/deploy-schemas). Each validator is first shown to reject a broken document, so a pass
 * means something.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Ajv from 'ajv';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { listVariants, loadVariant } from '@shellgrade/variant';
import { composeFiles } from '../src/deploy/compose';
import { k6TestRun, k6TestRunOptions, k6TestRunYaml } from '../src/deploy/k6-testrun';
import { kubernetesYaml } from '../src/deploy/kubernetes';
import { generateSecrets } from '../src/secrets';

// The research tools' Python (pip's kubernetes-validate), as scripts/setup.sh finds it.
const PYTHON = process.env.SG_TOOLS_PYTHON ?? execFileSync('bash', ['scripts/tools-python.sh'], { encoding: 'utf8' }).trim();
const presets = listVariants();
// Generated here: the tests never read or create this machine's run/secrets.json.
const secrets = generateSecrets();
// The compose schema names draft-07 by its https URL, which Ajv does not register: its meta-check is skipped.
const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });

const composeSchema = JSON.parse(readFileSync(join(dirname(require.resolve('dclint/package.json')), 'schemas', 'compose.schema.json'), 'utf8'));
const validCompose = ajv.compile(composeSchema);
const validTestRun = ajv.compile(JSON.parse(readFileSync(join(__dirname, '..', 'deploy-schemas', 'k6-testrun.schema.json'), 'utf8')));

const errorsOf = (validate: { errors?: unknown[] | null }) => JSON.stringify(validate.errors ?? [], null, 1);

/** kubernetes-validate --strict over files; a missing tool is a failure with the fix, never a skip. */
function kubernetesValidate(files: string[]): { status: number | null; output: string } {
  const r = spawnSync(PYTHON, ['-m', 'kubernetes_validate', '--strict', '--quiet', ...files], { encoding: 'utf8', timeout: 240_000 });
  const output = `${r.stdout}${r.stderr}`;
  if (r.error || /No module named kubernetes_validate/.test(output)) {
    throw new Error(`kubernetes-validate is not installed for ${PYTHON}: run scripts/setup.sh (pip install kubernetes-validate)\n${output}`);
  }
  return { status: r.status, output };
}

describe('docker-compose files against the Compose Specification schema', () => {
  it('rejects a broken file (replicas as a word, an unknown service key)', () => {
    const doc = parse(composeFiles(loadVariant('msa-1-2'))['docker-compose.yml']);
    doc.services.gateway.deploy.replicas = 'two';
    doc.services.gateway.restart_policy = 'always';
    expect(validCompose(doc)).toBe(false);
  });

  it.each(presets)('%s', (name) => {
    const doc = parse(composeFiles(loadVariant(name))['docker-compose.yml']);
    const ok = validCompose(doc);
    if (!ok) throw new Error(`${name}: ${errorsOf(validCompose)}`);
  });
});

describe('Kubernetes manifests with kubernetes-validate (offline, strict)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sg-k8s-validate-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('rejects a broken manifest (replicas as a word, an unknown container field)', () => {
    const docs = parseAllDocuments(kubernetesYaml(loadVariant('msa-1-2'), { secrets })).map((d) => d.toJS());
    const deploy = docs.find((d) => d.kind === 'Deployment' && d.metadata.name === 'gateway');
    deploy.spec.replicas = 'two';
    deploy.spec.template.spec.containers[0].envFromm = [];
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, stringify(deploy));
    const r = kubernetesValidate([file]);
    expect(r.status).not.toBe(0);
    expect(r.output).toMatch(/replicas|envFromm/);
  });

  it('every preset validates', () => {
    const files = presets.map((name) => {
      const file = join(dir, `${name}.yaml`);
      writeFileSync(file, kubernetesYaml(loadVariant(name), { secrets }));
      return file;
    });
    const r = kubernetesValidate(files);
    expect(r.output.split('\n').filter((l) => /ERROR|FAIL|Error/.test(l))).toEqual([]);
    expect(r.status).toBe(0);
  }, 300_000);
});

describe('k6-operator TestRun', () => {
  it('rejects a TestRun without a script', () => {
    const run = k6TestRun(loadVariant('msa-1-2')) as { spec: Record<string, unknown> };
    delete run.spec.script;
    expect(validTestRun(run)).toBe(false);
  });

  it.each(presets)('%s: valid, aimed at the in-cluster entry', (name) => {
    const spec = loadVariant(name);
    const yaml = k6TestRunYaml(spec, { namespace: 'load', parallelism: 3, profile: 'smoke' }, '/repo/run/k6-options.json');
    const run = parse(yaml) as { spec: { parallelism: number; runner: { env?: unknown } } };
    if (!validTestRun(run)) throw new Error(`${name}: ${errorsOf(validTestRun)}`);
    expect(run.spec.parallelism).toBe(3);
    // The entry and the profile travel in the archive's options file, not in the runners' environment.
    expect(run.spec.runner.env).toBeUndefined();
    expect(yaml).toContain('k6 archive benchmarks/sps.js -e SG_K6_OPTIONS=/repo/run/k6-options.json -O sps.tar');
    const options = k6TestRunOptions(spec, '/repo', { namespace: 'load', profile: 'smoke' });
    expect(options).toMatchObject({ schema: 'shellgrade.k6-options/1', script: 'sps', profile: 'smoke', usersCsv: '/repo/results/users.csv', reply: spec.reply, thresholds: false });
    // Every field the runner's schema requires of an sps options file (benchmarks/src/k6-options.ts validates them).
    for (const f of ['baseUrl', 'archive', 'summaryJson', 'summaryTxt', 'logSps', 'logRequests']) expect(options).toHaveProperty(f);
    const baseUrl = options.baseUrl;
    expect(baseUrl).toEqual(spec.entry === 'haproxy' ? 'http://haproxy.load.svc.cluster.local:8080' : expect.stringMatching(/^http:\/\/(monolith|gateway)\.load\.svc\.cluster\.local:\d+$/));
  });
});
