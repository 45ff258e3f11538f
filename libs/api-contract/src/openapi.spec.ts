import { z } from 'zod';
import { apiContract, exerciseBody, productionBody, sessionReportBody } from './bodies';
import { apiContractDocument, apiContractPaths, apiContractSchemas, listOf, schemaRef, withApiContract } from './openapi';
import { apiRequests, newExerciseRequest } from './requests';

/** Every `$ref` anywhere under `value`. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) => (key === '$ref' && typeof v === 'string' ? [v] : refsIn(v)));
}

describe('the API contract as OpenAPI components', () => {
  const schemas = apiContractSchemas();

  it('names one component per registered body and request schema, none with a JSON Schema $id', () => {
    const ids = (registry: typeof apiContract) => Object.keys(z.toJSONSchema(registry, { io: 'input' }).schemas);
    expect(Object.keys(schemas).sort()).toEqual([...ids(apiContract), ...ids(apiRequests)].sort());
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(['Exercise', 'SessionReport', 'TrialReply', 'WebAppConfig', 'NewExercise', 'LoginRequest', 'TrialUpload']));
    for (const schema of Object.values(schemas)) expect(schema).not.toHaveProperty('$id');
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

  it('writes a request as the client sends it: base64 and dates as strings, defaults optional, the archive of a form as binary', () => {
    const exercise = schemas.NewExercise as { properties: Record<string, Record<string, unknown>>; required: string[]; additionalProperties: boolean };
    expect(exercise.properties.question_archive).toMatchObject({ type: 'string', pattern: '^[A-Za-z0-9+/]*={0,2}$' });
    expect(exercise.properties.state).toMatchObject({ type: 'string', enum: ['draft', 'published', 'archived'] });
    expect(exercise.required).not.toContain('state'); // defaults to draft
    expect(exercise.additionalProperties).toBe(false);
    expect((schemas.NewBusinessSession as { properties: Record<string, unknown> }).properties.starts_at).toMatchObject({ type: 'string' });
    expect((schemas.TrialUpload as { properties: Record<string, unknown> }).properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(schemaRef(newExerciseRequest)).toEqual({ $ref: '#/components/schemas/NewExercise' });
  });
});

describe('the API contract as OpenAPI paths', () => {
  const doc = apiContractDocument();
  type Operation = { parameters?: { name: string; in: string; required: boolean }[]; requestBody?: { content: Record<string, unknown> }; responses: Record<string, { content?: Record<string, unknown> }> };
  const op = (path: string, method: string) => (doc.paths[path] as Record<string, Operation>)[method]!;

  it('refers only to components it defines', () => {
    const refs = refsIn(doc.paths);
    expect(refs.length).toBeGreaterThan(30);
    for (const ref of refs) expect(Object.keys(doc.components.schemas)).toContain(ref.replace('#/components/schemas/', ''));
  });

  it('gives each operation its path ids, its query, its body and its answers', () => {
    expect(op('/api/exercise/{id}', 'patch').parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }]);
    expect(op('/api/exercise/{id}', 'patch').requestBody?.content).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/ExerciseUpdate' } } });
    expect(op('/api/exercise', 'get').parameters?.map((p) => [p.name, p.in, p.required])).toEqual([['limit', 'query', false], ['offset', 'query', false], ['state', 'query', false]]);
    expect(op('/api/exercise', 'get').responses['200']!.content).toEqual({ 'application/json': { schema: listOf(exerciseBody) } });
    const sps = op('/api/exercise-production', 'post');
    expect(Object.keys(sps.requestBody!.content)).toEqual(['application/json', 'multipart/form-data']);
    expect(Object.keys(sps.responses)).toEqual(['201', '202']);
    expect(op('/api/business-session/{id}/report', 'get').responses['200']!.content).toHaveProperty('text/csv');
    expect(op('/api/exercise-trial', 'post').responses['200']!.content).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/TrialReply' } } });
  });

  it('enriches the operations a service serves, keeping its tags, and adds none it does not serve', () => {
    const served = withApiContract({
      openapi: '3.0.0',
      paths: { '/api/exercise/{id}': { get: { tags: ['exercises'], operationId: 'own', responses: {} } }, '/own': { get: { responses: {} } } },
    });
    expect(served.paths['/api/exercise/{id}']).toEqual({ get: { tags: ['exercises'], operationId: 'own', ...apiContractPaths()['/api/exercise/{id}']!.get } });
    expect(Object.keys(served.paths)).toEqual(['/api/exercise/{id}', '/own']);
  });

  it('registers each body once, under the id the web app names it by', () => {
    expect(apiContract.get(sessionReportBody)).toEqual({ id: 'SessionReport' });
  });
});
