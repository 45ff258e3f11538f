/**
 * The contract (bodies.ts) as OpenAPI 3.0: the components every service's /docs carries, a
 * reference for a controller's response, and the document the web app's types are generated from.
 */
import { z } from 'zod';
import { apiContract } from './bodies';

export type OpenApiSchema = Record<string, unknown>;
export interface OpenApiComponentsDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, unknown>;
  components: { schemas: Record<string, OpenApiSchema> };
}

const COMPONENTS = '#/components/schemas/';

/** Every body of the contract as an OpenAPI schema, named by its id; they refer to each other by $ref. */
export function apiContractSchemas(): Record<string, OpenApiSchema> {
  const { schemas } = z.toJSONSchema(apiContract, { target: 'openapi-3.0', uri: (id) => COMPONENTS + id });
  // ($id is JSON Schema's, not a field an OpenAPI 3.0 schema object has.)
  return Object.fromEntries(Object.entries(schemas).map(([id, { $id: _id, ...schema }]) => [id, schema as OpenApiSchema]));
}

/** `{ $ref }` to a body of the contract, for a controller's documented response. */
export function schemaRef(body: z.ZodType): { $ref: string } {
  const meta = apiContract.get(body);
  if (meta === undefined) throw new Error('schemaRef: this schema is not registered in the API contract (bodies.ts)');
  return { $ref: COMPONENTS + meta.id };
}

/** An array of a body of the contract. */
export function listOf(body: z.ZodType): { type: 'array'; items: { $ref: string } } {
  return { type: 'array', items: schemaRef(body) };
}

/** A service's OpenAPI document with the contract's components added (what /docs serves). */
export function withApiContract<D extends { components?: { schemas?: Record<string, unknown> } }>(doc: D): D {
  return { ...doc, components: { ...doc.components, schemas: { ...doc.components?.schemas, ...apiContractSchemas() } } };
}

/** The contract alone, as the OpenAPI document the web app's types are generated from. */
export function apiContractDocument(): OpenApiComponentsDocument {
  return withApiContract({ openapi: '3.0.0', info: { title: 'shellgrade public API contract', version: '1' }, paths: {}, components: { schemas: {} } });
}
