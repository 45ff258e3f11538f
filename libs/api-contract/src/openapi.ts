/**
 * The contract as OpenAPI 3.0: the response bodies (bodies.ts) and request schemas (requests.ts)
 * as components, the operations (paths.ts) as paths. Every service's /docs carries it
 * (withApiContract), and the web app's typed client is generated from apiContractDocument().
 */
import { z } from 'zod';
import { apiContract } from './bodies';
import { type ApiOperation, type ApiPaths, apiPaths, HTTP_METHODS } from './paths';
import { apiRequests } from './requests';

export type OpenApiSchema = Record<string, unknown>;
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, OpenApiSchema> };
}

const COMPONENTS = '#/components/schemas/';

/** A registry as components: answers as the server writes them, requests as a client writes them (a base64 string, not the bytes it decodes to). */
function componentsOf(registry: typeof apiContract, io: 'input' | 'output'): Record<string, OpenApiSchema> {
  const { schemas } = z.toJSONSchema(registry, { target: 'openapi-3.0', io, uri: (id) => COMPONENTS + id });
  // ($id is JSON Schema's, not a field an OpenAPI 3.0 schema object has.)
  return Object.fromEntries(Object.entries(schemas).map(([id, { $id: _id, ...schema }]) => [id, schema as OpenApiSchema]));
}

/** Every body and request schema of the contract as an OpenAPI schema, named by its id; they refer to each other by $ref. */
export function apiContractSchemas(): Record<string, OpenApiSchema> {
  const answers = componentsOf(apiContract, 'output');
  const requests = componentsOf(apiRequests, 'input');
  const twice = Object.keys(requests).filter((id) => id in answers);
  if (twice.length > 0) throw new Error(`api-contract: ${twice.join(', ')} named both as a body and as a request`);
  return { ...answers, ...requests };
}

/** `{ $ref }` to a body or request schema of the contract. */
export function schemaRef(body: z.ZodType): { $ref: string } {
  const meta = apiContract.get(body) ?? apiRequests.get(body);
  if (meta === undefined) throw new Error('schemaRef: this schema is not registered in the API contract (bodies.ts, requests.ts)');
  return { $ref: COMPONENTS + meta.id };
}

/** An array of a body of the contract. */
export function listOf(body: z.ZodType): { type: 'array'; items: { $ref: string } } {
  return { type: 'array', items: schemaRef(body) };
}

/** A body of an operation: a registered schema, or an array of one. */
function bodySchema(schema: z.ZodType): OpenApiSchema {
  return schema instanceof z.ZodArray ? listOf(schema.element as z.ZodType) : schemaRef(schema);
}

/** The parameters of an operation: its path's `{names}` (row ids) and its query's fields, as a client writes them. */
function parametersOf(path: string, op: ApiOperation): OpenApiSchema[] {
  const inPath = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }));
  if (!op.query) return inPath;
  const query = z.toJSONSchema(op.query, { target: 'openapi-3.0', io: 'input' }) as { properties?: Record<string, OpenApiSchema>; required?: string[] };
  const inQuery = Object.entries(query.properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: query.required?.includes(name) ?? false, schema }));
  return [...inPath, ...inQuery];
}

/** One operation of paths.ts as an OpenAPI operation object. */
function operationOf(path: string, op: ApiOperation): Record<string, unknown> {
  const content: Record<string, { schema: OpenApiSchema }> = {};
  if (op.json) content['application/json'] = { schema: bodySchema(op.json) };
  if (op.multipart) content['multipart/form-data'] = { schema: bodySchema(op.multipart) };
  const responses = Object.fromEntries(
    Object.entries(op.answers).map(([status, answer]) => {
      const body: Record<string, { schema: OpenApiSchema }> = {};
      if (answer.json) body['application/json'] = { schema: bodySchema(answer.json) };
      if (answer.csv) body['text/csv'] = { schema: { type: 'string', description: answer.csv } };
      return [status, { description: answer.description, ...(Object.keys(body).length > 0 ? { content: body } : {}) }];
    }),
  );
  const parameters = parametersOf(path, op);
  return {
    summary: op.summary,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(Object.keys(content).length > 0 ? { requestBody: { required: true, content } } : {}),
    responses,
  };
}

/** The operations of paths.ts as OpenAPI paths. */
export function apiContractPaths(paths: ApiPaths = apiPaths): Record<string, Record<string, Record<string, unknown>>> {
  return Object.fromEntries(
    Object.entries(paths).map(([path, ops]) => [
      path,
      Object.fromEntries(HTTP_METHODS.flatMap((method) => (ops[method] ? [[method, operationOf(path, ops[method])]] : []))),
    ]),
  );
}

/**
 * A service's OpenAPI document (what /docs serves) with the contract's components added, and each
 * operation it serves that the contract names given the contract's parameters, request body and
 * answers (its tags and operation id stay the service's). An operation the service does not
 * serve is not added: each service documents its own routes.
 */
export function withApiContract<D extends { paths?: Record<string, unknown>; components?: { schemas?: Record<string, unknown> } }>(doc: D): D {
  const contract = apiContractPaths();
  const paths: Record<string, unknown> = { ...doc.paths };
  for (const [path, item] of Object.entries(paths)) {
    const ops = contract[path];
    if (!ops || item === null || typeof item !== 'object') continue;
    const served = { ...(item as Record<string, unknown>) };
    for (const [method, op] of Object.entries(ops)) {
      const own = served[method];
      if (own !== null && typeof own === 'object') served[method] = { ...own, ...op };
    }
    paths[path] = served;
  }
  return {
    ...doc,
    ...(doc.paths ? { paths } : {}),
    components: { ...doc.components, schemas: { ...doc.components?.schemas, ...apiContractSchemas() } },
  };
}

/** The contract alone, as the OpenAPI document the web app's client is generated from. */
export function apiContractDocument(): OpenApiDocument {
  return {
    openapi: '3.0.0',
    info: { title: 'shellgrade public API contract', version: '1' },
    paths: apiContractPaths(),
    components: { schemas: apiContractSchemas() },
  };
}
