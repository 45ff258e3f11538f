/** dispatch: pipeline in the spec: its defaults, its cross-field checks, the servers it needs. */
import { loadVariant, validateVariant, VariantSpecError } from './loader';
import { variantServers } from './processes';

const msa = { name: 'p', description: 'x', topology: 'msa', dispatch: 'pipeline', replicas: { gateway: 1, leftover: 1, exercise: 2 } } as const;

describe('dispatch: pipeline', () => {
  it('fills one default per filter and names its queues after sg.pipeline', () => {
    const spec = validateVariant(msa);
    expect(spec.pipeline).toEqual({ check: { prefetch: 4 }, grade: { prefetch: 1 }, record: { prefetch: 8 } });
    expect(spec.broker.queue).toBe('sg.pipeline');
  });

  it('needs RabbitMQ, and allows async replies', () => {
    expect(variantServers(validateVariant(msa))).toContain('rabbitmq');
    expect(validateVariant({ ...msa, reply: 'async' }).reply).toBe('async');
  });

  it('is refused on a monolith: its filters run on the exercise replicas', () => {
    expect(() => validateVariant({ ...msa, topology: 'monolith', replicas: { monolith: 1 } })).toThrow(/pipeline runs its filters on the exercise replicas: it needs topology msa/);
  });

  it('refuses a filter on more replicas than there are exercise replicas', () => {
    expect(() => validateVariant({ ...msa, pipeline: { grade: { replicas: 3 } } })).toThrow(VariantSpecError);
    expect(() => validateVariant({ ...msa, pipeline: { grade: { replicas: 3 } } })).toThrow(/pipeline\.grade\.replicas.*at most replicas.exercise \(2\)/);
    expect(validateVariant({ ...msa, pipeline: { grade: { replicas: 2 }, check: { replicas: 1 } } }).pipeline.check.replicas).toBe(1);
  });

  it('msa-pipeline-1-2 is msa-rabbitmq-1-2 but for the dispatch (its baseline)', () => {
    const { name, description, paper, dispatch, pipeline, broker, ...rest } = loadVariant('msa-pipeline-1-2');
    const { dispatch: baseDispatch, broker: baseBroker, name: _n, description: _d, paper: _p, pipeline: _q, ...baseRest } = loadVariant('msa-rabbitmq-1-2');
    expect([dispatch, baseDispatch]).toEqual(['pipeline', 'rabbitmq']);
    expect(rest).toEqual(baseRest);
    expect({ ...broker, queue: baseBroker.queue }).toEqual(baseBroker);
    expect([name, description.length > 0, paper?.source]).toEqual(['msa-pipeline-1-2', true, '003 cloud design patterns under heterogeneous workloads']);
    expect(pipeline.grade.prefetch).toBe(1);
  });
});
