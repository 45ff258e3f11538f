import { z } from 'zod';
import { apiContract, exerciseBody, productionBody, sessionReportBody } from './bodies';
import { apiContractDocument, apiContractSchemas, listOf, schemaRef, withApiContract } from './openapi';

/** Every `$ref` anywhere under `value`. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) => (key === '$ref' && typeof v === 'string' ? [v] : refsIn(v)));
}

describe('the API contract as OpenAPI components', () => {
  const schemas = apiContractSchemas();

  it('names one component per registered body, each an object schema without a JSON Schema $id', () => {
    expect(Object.keys(schemas).sort()).toEqual(
      ['BusinessSession', 'Exercise', 'FeedbackItem', 'Production', 'Sequence', 'SessionProduction', 'SessionReport', 'SessionUser', 'Statement', 'SubmissionGraded', 'SubmissionQueued'],
    );
    for (const schema of Object.values(schemas)) {
      expect(schema.type).toBe('object');
      expect(schema).not.toHaveProperty('$id');
    }
  });

  it('refers between bodies only to components it defines (a production embeds FeedbackItem)', () => {
    const refs = refsIn(schemas);
    expect(refs).toContain('#/components/schemas/FeedbackItem');
    for (const ref of refs) expect(Object.keys(schemas)).toContain(ref.replace('#/components/schemas/', ''));
  });

  it('writes timestamps as date-time strings and nullables in the OpenAPI 3.0 way', () => {
    const production = schemas.Production as { properties: Record<string, Record<string, unknown>>; required: string[] };
    expect(production.properties.created_at).toMatchObject({ type: 'string', format: 'date-time' });
    expect(production.properties.graded_at).toMatchObject({ type: 'string', format: 'date-time', nullable: true });
    expect(production.required).toContain('graded_at'); // nullable, not optional: the key is always there
    expect((schemas.Exercise as { required: string[] }).required).not.toContain('grader_script'); // staff only
  });

  it('references a registered body by its id, and refuses one the contract does not hold', () => {
    expect(schemaRef(exerciseBody)).toEqual({ $ref: '#/components/schemas/Exercise' });
    expect(listOf(productionBody)).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Production' } });
    expect(() => schemaRef(z.object({ stray: z.string() }))).toThrow(/not registered in the API contract/);
  });

  it('adds its components to a service document without dropping the service’s own', () => {
    const doc = withApiContract({ openapi: '3.0.0', components: { schemas: { Own: { type: 'string' } } } });
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['Own', 'SessionReport']));
    expect(apiContractDocument().components.schemas).toEqual(schemas);
  });

  it('registers each body once, under the id the web app names it by', () => {
    expect(apiContract.get(sessionReportBody)).toEqual({ id: 'SessionReport' });
  });
});
