/** dispatch: pipeline's wiring: which filters an exercise replica runs (pipeline.<filter>.replicas). */
import { validateVariant } from '@shellgrade/variant';
import { filtersOfReplica } from '../src/dispatch/pipeline';

const specOf = (pipeline: object) =>
  validateVariant({ name: 'p', description: 'x', topology: 'msa', dispatch: 'pipeline', replicas: { gateway: 1, leftover: 1, exercise: 3 }, pipeline });

describe('filtersOfReplica', () => {
  it('runs every filter on every replica by default, each with its own prefetch', () => {
    const { pipeline } = specOf({});
    for (const replica of [0, 1, 2]) {
      expect(filtersOfReplica(pipeline, replica)).toEqual({ check: { prefetch: 4 }, grade: { prefetch: 1 }, record: { prefetch: 8 } });
    }
  });

  it('scales a filter apart: grade on three replicas, check and record on the first one only', () => {
    const { pipeline } = specOf({ check: { replicas: 1 }, record: { replicas: 1, prefetch: 2 } });
    expect(Object.keys(filtersOfReplica(pipeline, 0))).toEqual(['check', 'grade', 'record']);
    expect(filtersOfReplica(pipeline, 0).record).toEqual({ prefetch: 2 });
    expect(filtersOfReplica(pipeline, 2)).toEqual({ grade: { prefetch: 1 } });
  });
});
