import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listVariants, loadVariant, variantsDir, VariantSpecError } from './loader';
import { ADMISSION_DEFAULTS, admissionBounded, answerBudgetMsOf, loginAdmissionBounded } from './spec';

const PRESETS = [
  'dev', 'naked-mon', 'naked-mon-async', 'naked-mon-async-admission', 'naked-mon-zygote', 'naked-mon-zygote-admission', 'mon-x1', 'mon-x2', 'mon-x4', 'mon-x8', 'mon-x12',
  'msa-1-1', 'msa-1-2', 'msa-2-2', 'msa-1-4', 'msa-4-4', 'msa-1-8', 'msa-8-8', 'msa-1-12', 'msa-12-12',
  'msa-2-4-4', 'msa-2-2-2', 'msa-zygote-1-1', 'msa-zygote-1-2',
  ...['rabbitmq', 'bullmq'].flatMap((b) => ['1-1', '1-2', '1-4', '2-2', '2-4', '4-4', '1-1-async', '1-4-async'].map((xy) => `msa-${b}-${xy}`)),
  'msa-rabbitmq-2-4-4', 'mon-minio', 'msa-minio-1-2', 'msa-minio-1-4',
  'msa-rabbitmq-minio-1-4', 'msa-bullmq-minio-1-4', 'msa-rabbitmq-minio-2-4-4',
  'mon-redis', 'msa-redis-1-2',
  'msa-grpc-1-1', 'msa-grpc-1-2', 'msa-grpc-2-4-4',
  'msa-aggregation-1-2', 'msa-offloading-1-2', 'msa-pipeline-1-2',
];

describe('presets', () => {
  it('ships every named preset and nothing unlisted', () => {
    expect(listVariants()).toEqual([...PRESETS].sort());
  });

  it.each(PRESETS)('%s loads, keeps its own name and says which grader exec it uses', (name) => {
    const spec = loadVariant(name);
    expect(spec.name).toBe(name);
    expect(spec.description).toMatch(new RegExp(`grader exec ${spec.grader.exec}`, 'i'));
  });

  it('paper-faithful presets grade with a blocking call', () => {
    for (const name of PRESETS) {
      const spec = loadVariant(name);
      if (spec.paper?.source.includes('§IV')) expect([name, spec.grader.exec]).toEqual([name, 'blocking']);
    }
    expect(loadVariant('naked-mon-async').grader.exec).toBe('async');
  });

  it('derives topology fields through extends', () => {
    const mon8 = loadVariant('mon-x8');
    expect(mon8).toMatchObject({ topology: 'monolith', entry: 'haproxy', dispatch: 'inline', replicas: { monolith: 8 } });
    expect(mon8.paper?.configuration).toBe('MON×8');
    const naked = loadVariant('naked-mon');
    expect(naked).toMatchObject({ entry: 'direct', replicas: { monolith: 1 } });
    expect(loadVariant('mon-x1')).toMatchObject({ entry: 'haproxy', replicas: { monolith: 1 } });
    expect(loadVariant('msa-1-12')).toMatchObject({ entry: 'direct', replicas: { gateway: 1, leftover: 1, exercise: 12 } });
    expect(loadVariant('msa-2-4-4')).toMatchObject({ entry: 'haproxy', replicas: { gateway: 2, leftover: 4, exercise: 4 } });
    const rabbitAsync = loadVariant('msa-rabbitmq-1-4-async');
    expect(rabbitAsync).toMatchObject({ dispatch: 'rabbitmq', reply: 'async', replicas: { exercise: 4 } });
    expect(loadVariant('msa-bullmq-minio-1-4')).toMatchObject({ dispatch: 'bullmq', storage: 'minio', reply: 'sync' });
    const dev = loadVariant('dev');
    expect({ ...dev, name: naked.name, description: naked.description, paper: naked.paper }).toEqual(naked);
    expect(dev.paper).toBeUndefined();
  });
});

describe('bad specs fail naming the field', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sg-variants-'));
  writeFileSync(join(dir, 'base.yaml'), 'description: base\ntopology: msa\ndispatch: inline\nreplicas: { gateway: 1, leftover: 1, exercise: 1 }\n');
  const load = (yaml: string) => {
    const file = join(dir, 'case.yaml');
    writeFileSync(file, yaml);
    return () => loadVariant(file, dir);
  };

  it.each([
    ['extends: base\ndescription: x\nreplicas: { gateway: 1, leftover: 1, exercise: 0 }', 'replicas.exercise: expected a positive integer'],
    ['extends: base\ndescription: x\nreplicas: { gateway: 1, leftover: 1, exercise: two }', 'replicas.exercise: expected a positive integer'],
    ['extends: base\ndescription: x\nreplicas: { gateway: 1, leftover: 1 }', 'replicas.exercise: expected a positive integer'],
    ['extends: base\ndescription: x\ndispatch: http', 'dispatch: dispatch http was renamed'],
    ['extends: base\ndescription: x\ntransport: soap', 'transport: Invalid option'],
    ['description: x\ntopology: monolith\ndispatch: inline\ntransport: grpc\nreplicas: { monolith: 1 }', 'transport: topology monolith has no internal hops'],
    ['description: x\ntopology: monolith\ndispatch: rabbitmq\nreplicas: { monolith: 2 }', 'dispatch: topology monolith grades in-process: expected inline'],
    ['extends: base\ndescription: x\ndispatch: bullmq\ngrader: { exec: blocking }', 'grader.exec: dispatch bullmq needs a grader that does not block the event loop'],
    ['description: x\ntopology: monolith\ndispatch: inline\nreplicas: { monolith: 2, exercise: 1 }', 'replicas.exercise: not allowed with topology monolith'],
    ['extends: base\ndescription: x\nreply: async', 'reply: async replies need a broker'],
    ['extends: base\ndescription: x\nreplicas: { gateway: 2, leftover: 1, exercise: 1 }\nentry: direct', 'entry: direct needs exactly one gateway'],
    ['extends: base\ndescription: x\ngrader: { exec: fork }', 'grader.exec: Invalid option'],
    ['extends: base\ndescription: x\ncache: memcached', 'cache: Invalid option'],
    ['extends: base\ndescription: x\ngrader: { nice: 20 }', 'grader.nice: expected an integer 0..19'],
    ['extends: base\ndescription: x\ndispatch: rabbitmq\nbroker: { replyTimeoutMs: 60000 }', 'broker.replyTimeoutMs: must be below haproxy.timeouts.serverMs (60000 ms)'],
    ['extends: base\ndescription: x\nhaproxy: { timeouts: { serverMs: -5 } }', 'haproxy.timeouts.serverMs: expected a positive number of milliseconds'],
    ['extends: base\ndescription: x\ntracing: { enabled: yes please }', 'tracing.enabled: expected true or false'],
    ['extends: base\ndescription: x\nreplica: { gateway: 1 }', 'replica: unknown field'],
    ['extends: base\ndescription: x\nbroker: { prefetch: 1, queuebound: 5 }', 'broker.queuebound: unknown field'],
    ['extends: base\ndescription: x\nbroker: { queue: "a:b" }', "broker.queue: expected a queue name without ':'"],
    ['extends: base\ndescription: x\nhttp: { maxArchiveBytes: 0 }', 'http.maxArchiveBytes: expected a positive integer'],
    ['extends: base\ndescription: x\nhttp: { maxBodyBytes: 8388608 }', 'http.maxBodyBytes: unknown field'],
    ['extends: base\ndescription: x\nhttp: { opsAccess: everyone }', 'http.opsAccess: Invalid option'],
    ['extends: base\ndescription: x\nauth: { secureCookies: sometimes }', "auth.secureCookies: expected true, false or 'auto'"],
    ['extends: base\ndescription: x\nauth: { secretPolicy: lax }', 'auth.secretPolicy: Invalid option'],
    ['extends: base\ndescription: x\nauth: { refreshCookiePath: api/auth }', "auth.refreshCookiePath: expected a path starting with '/'"],
    ['extends: base\ndescription: x\nauth: { tokenVersionCacheMs: -1 }', 'auth.tokenVersionCacheMs: expected a non-negative number of milliseconds'],
    ['extends: base\ndescription: x\nauth: { rateLimits: { store: disk } }', 'auth.rateLimits.store: Invalid option'],
    ['extends: base\ndescription: x\nauth: { rateLimits: { submissionsPerStudent: { points: 0, durationS: 60 } } }', 'auth.rateLimits.submissionsPerStudent.points: expected a positive integer'],
    ['extends: base\ndescription: x\nauth: { rateLimits: { loginFailuresPerClient: { points: 5 } } }', 'auth.rateLimits.loginFailuresPerClient.durationS: expected a positive number of seconds'],
    ['extends: base\ndescription: x\nreplicas: { gateway: 1, leftover: 1, exercise: 2 }\nauth: { rateLimits: { store: memory } }', 'auth.rateLimits.store: memory counters are per process'],
    ['extends: base\ndescription: x\ngrader: { limits: { gradingMemoryBytes: 0 } }', 'grader.limits.gradingMemoryBytes: expected a positive number of bytes'],
    ['extends: base\ndescription: x\ngrader: { limits: { pids: 10 } }', 'grader.limits.pids: unknown field'],
    ['extends: base\ndescription: x\ngrader: { cgroups: on }', 'grader.cgroups: Invalid option'],
    ['extends: base\ndescription: x\ngrader: { maxConcurrent: 0 }', 'grader.maxConcurrent: expected a positive integer'],
    ['extends: base\ndescription: x\nadmission: { windowS: 0 }', 'admission.windowS: expected a positive number of seconds'],
    ['extends: base\ndescription: x\nadmission: { windowS: half a minute }', 'admission.windowS: expected a positive number of seconds'],
    ['extends: base\ndescription: x\nenv: { "bad-name": 1 }', 'env.bad-name: expected an environment variable name'],
    ['extends: base', 'description: expected a sentence'],
    ['extends: nowhere\ndescription: x', "extends: no preset 'nowhere'"],
    ['extends: base\n  - broken: [', 'not valid YAML'],
  ])('case %#', (yaml, message) => {
    expect(load(yaml)).toThrow(VariantSpecError);
    expect(load(yaml)).toThrow(message);
  });

  it('rejects an extends cycle', () => {
    writeFileSync(join(dir, 'a.yaml'), 'extends: b\ndescription: a\n');
    writeFileSync(join(dir, 'b.yaml'), 'extends: a\ndescription: b\n');
    expect(() => loadVariant('a', dir)).toThrow('extends: cycle a -> b -> a');
  });

  it('names the known presets for an unknown name', () => {
    expect(() => loadVariant('nope', dir)).toThrow(/unknown variant 'nope'.*known: .*base/);
  });

  it('merges env and replaces replicas whole', () => {
    writeFileSync(join(dir, 'env1.yaml'), 'extends: base\ndescription: e\nenv: { SG_KDF_COST: 4, A: "x" }\n');
    writeFileSync(join(dir, 'env2.yaml'), 'extends: env1\ndescription: e2\nenv: { A: y }\nreplicas: { gateway: 1, leftover: 2, exercise: 3 }\n');
    const spec = loadVariant('env2', dir);
    expect(spec.env).toEqual({ SG_KDF_COST: '4', A: 'y' });
    expect(spec.replicas).toEqual({ gateway: 1, leftover: 2, exercise: 3 });
  });
});

describe('admission control by default', () => {
  it('is on in every preset that reproduces no paper configuration, with an answer deadline', () => {
    for (const name of ['naked-mon-async', 'naked-mon-zygote', 'msa-zygote-1-2', 'msa-2-2-2']) {
      expect(loadVariant(name).admission).toMatchObject({ enabled: true, ...ADMISSION_DEFAULTS });
    }
  });

  it('keeps what a preset sets, completing the rest', () => {
    expect(loadVariant('naked-mon-zygote-admission').admission).toMatchObject({ enabled: true, maxWaitS: 5, maxLoginEventLoopDelayMs: 50, answerDeadlineS: 60 });
    expect(loadVariant('naked-mon-async-admission').admission).toMatchObject({ maxWaitS: 8, maxLoginsInFlight: 64, maxSubmissionsInFlightPerStudent: 2 });
  });

  /** A spec written next to copies of the presets, so it can extend any of them. */
  const withPresets = mkdtempSync(join(tmpdir(), 'sg-admission-'));
  cpSync(variantsDir(), withPresets, { recursive: true });
  const own = (yaml: string) => {
    const file = join(withPresets, 'own.yaml');
    writeFileSync(file, yaml);
    return loadVariant(file, withPresets).admission;
  };
  const gates = (a: ReturnType<typeof own>) => ({ submissions: admissionBounded(a), logins: loginAdmissionBounded(a), answerBudgetMs: answerBudgetMsOf(a) });

  it('enabled: false is off whatever bounds the extended preset set: no submission gate, no login gate, no answer deadline', () => {
    expect(gates(loadVariant('naked-mon-zygote-admission').admission)).toEqual({ submissions: true, logins: true, answerBudgetMs: 60_000 });
    const off = own('extends: naked-mon-zygote-admission\ndescription: x\nadmission: { enabled: false }\n');
    expect(off).toEqual({ enabled: false, retryAfterS: 5 });
    expect(gates(off)).toEqual({ submissions: false, logins: false, answerBudgetMs: undefined });
    // Bounds next to enabled: false (a spec built in code, not loaded) bind nothing either.
    expect(gates({ enabled: false, retryAfterS: 5, maxSubmissionsInFlight: 1, maxLoginsInFlight: 1, answerDeadlineS: 1 })).toEqual({ submissions: false, logins: false, answerBudgetMs: undefined });
  });

  it('enabled: true turns it on with the defaults, over a paper preset too', () => {
    const on = own('extends: naked-mon\ndescription: x\npaper: { source: "000", configuration: Naked MON }\nadmission: { enabled: true, maxWaitS: 2 }\n');
    expect(on).toMatchObject({ ...ADMISSION_DEFAULTS, enabled: true, maxWaitS: 2 });
    expect(gates(on)).toEqual({ submissions: true, logins: true, answerBudgetMs: 60_000 });
  });

  it('unset on a paper preset: only the bounds it sets itself apply, no defaults', () => {
    const paper = 'extends: naked-mon\ndescription: x\npaper: { source: "000", configuration: Naked MON }\n';
    expect(gates(own(paper))).toEqual({ submissions: false, logins: false, answerBudgetMs: undefined });
    const bounded = own(`${paper}admission: { maxSubmissionsInFlight: 8 }\n`);
    expect(bounded).toEqual({ enabled: true, retryAfterS: 5, maxSubmissionsInFlight: 8 });
    expect(gates(bounded)).toEqual({ submissions: true, logins: false, answerBudgetMs: undefined });
  });

  it("the gates' window is 30 s unless a spec sets it (unset here: libs/admission's default), and a spec's own is kept", () => {
    expect(loadVariant('naked-mon-zygote').admission.windowS).toBeUndefined();
    expect(own('extends: naked-mon-zygote\ndescription: x\nadmission: { windowS: 3 }\n')).toMatchObject({ ...ADMISSION_DEFAULTS, enabled: true, windowS: 3 });
  });

  it('unset on a non-paper preset: on, its own bounds completed by the defaults', () => {
    const extended = own('extends: naked-mon-zygote-admission\ndescription: x\nadmission: { maxWaitS: 9 }\n');
    expect(extended).toEqual({ ...loadVariant('naked-mon-zygote-admission').admission, maxWaitS: 9 });
    expect(gates(extended)).toEqual({ submissions: true, logins: true, answerBudgetMs: 60_000 });
  });

  it("leaves a paper preset with the paper's behaviour: every submission admitted and graded", () => {
    for (const name of ['naked-mon', 'mon-x4', 'msa-1-2', 'msa-rabbitmq-1-4', 'msa-bullmq-1-2']) {
      const { admission } = loadVariant(name);
      expect(admission.enabled).toBe(false);
      expect(admissionBounded(admission) || loginAdmissionBounded(admission) || answerBudgetMsOf(admission) !== undefined).toBe(false);
    }
  });
});
