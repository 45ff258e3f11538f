/**
 * The controllers serve what the contract's paths say (libs/api-contract paths.ts), so the web
 * app's client, generated from those paths, calls routes that exist: every operation of the
 * contract is a route of a controller, with the status it answers, every /api route is in the
 * contract (under one of its paths), and what a controller documents as its answer is the
 * contract's.
 */
import { RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { apiContractPaths, apiPaths as contractPaths, type ApiPaths, type HttpMethod } from '@shellgrade/api-contract';
import { ExercisesController } from './admin/exercises.controller';
import { ProductionsListController } from './admin/productions-list.controller';
import { SequencesController } from './admin/sequences.controller';
import { SessionsController } from './admin/sessions.controller';
import { StatementsController } from './admin/statements.controller';
import { UsersController } from './admin/users.controller';
import { AuthController } from './auth/auth.controller';
import { ExerciseTrialController } from './exercise-trial.controller';
import { ProductionController } from './production/production.controller';
import { SessionReportController } from './report/session-report.controller';

const CONTROLLERS = [
  AuthController,
  UsersController,
  ExercisesController,
  SequencesController,
  SessionsController,
  StatementsController,
  ProductionsListController,
  SessionReportController,
  ProductionController,
  ExerciseTrialController,
];
const METHODS: Partial<Record<RequestMethod, HttpMethod>> = {
  [RequestMethod.GET]: 'get',
  [RequestMethod.POST]: 'post',
  [RequestMethod.PUT]: 'put',
  [RequestMethod.PATCH]: 'patch',
  [RequestMethod.DELETE]: 'delete',
};
/** @nestjs/swagger's metadata key of @ApiOkResponse and its kin. */
const API_RESPONSE = 'swagger/apiResponse';

interface Route {
  where: string;
  method: HttpMethod;
  /** The same route under each of its controller's prefixes, as OpenAPI writes paths. */
  paths: string[];
  status: number;
  documented: Record<string, { schema?: unknown }>;
}

const asList = (p: string | string[] | undefined): string[] => (p === undefined ? [''] : Array.isArray(p) ? p : [p]);
const openApiPath = (...parts: string[]) =>
  '/' + parts.flatMap((p) => p.split('/')).filter(Boolean).map((s) => s.replace(/^:(\w+)$/, '{$1}')).join('/');

function routesOf(controller: (typeof CONTROLLERS)[number]): Route[] {
  const prefixes = asList(Reflect.getMetadata(PATH_METADATA, controller) as string | string[]);
  const proto = controller.prototype as unknown as Record<string, unknown>;
  return Object.getOwnPropertyNames(proto).flatMap((name) => {
    const handler = proto[name] as object;
    const verb = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
    if (verb === undefined || typeof handler !== 'function') return [];
    const method = METHODS[verb];
    if (!method) throw new Error(`${controller.name}.${name}: a verb the contract cannot write`);
    const own = asList(Reflect.getMetadata(PATH_METADATA, handler) as string | string[]);
    const code = Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined;
    return [{
      where: `${controller.name}.${name}`,
      method,
      paths: prefixes.flatMap((prefix) => own.map((p) => openApiPath(prefix, p))),
      status: code ?? (method === 'post' ? 201 : 200),
      documented: (Reflect.getMetadata(API_RESPONSE, handler) as Route['documented'] | undefined) ?? {},
    }];
  });
}

const routes = CONTROLLERS.flatMap(routesOf);
const apiPaths: ApiPaths = contractPaths;
const contract = apiContractPaths();
const operations = Object.entries(apiPaths)
  .filter(([path]) => path.startsWith('/api/'))
  .flatMap(([path, ops]) => (Object.keys(ops) as HttpMethod[]).map((method) => ({ path, method, op: ops[method]! })));

describe('the controllers serve the contract’s paths', () => {
  it('finds the routes (a guard against reading no metadata at all)', () => {
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.find((r) => r.where === 'ExercisesController.update')).toMatchObject({ method: 'patch', paths: ['/api/exercise/{id}', '/api/exercises/{id}'] });
  });

  it.each(operations.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))('%s is a route, answering a status the contract names', (_name, { path, method, op }) => {
    const route = routes.find((r) => r.method === method && r.paths.includes(path));
    if (!route) throw new Error(`no controller serves ${method.toUpperCase()} ${path}`);
    expect(Object.keys(op.answers).map(Number)).toContain(route.status);
  });

  it('has every /api route in the contract, under one of its paths', () => {
    const missing = routes.filter((r) => !r.paths.some((p) => apiPaths[p]?.[r.method])).map((r) => `${r.where}: ${r.method.toUpperCase()} ${r.paths.join(' | ')}`);
    // UsersController's DELETE logout answers /api/user/logout where AuthController does not register first.
    expect(missing).toEqual([]);
  });

  it('documents, where a controller says what it answers, the contract’s answer', () => {
    for (const route of routes) {
      const path = route.paths.find((p) => contract[p]?.[route.method]);
      if (!path) continue;
      const responses = (contract[path]![route.method] as { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }).responses;
      for (const [status, documented] of Object.entries(route.documented)) {
        if (documented.schema === undefined) continue;
        expect([route.where, status, documented.schema]).toEqual([route.where, status, responses[status]?.content?.['application/json']?.schema]);
      }
    }
  });
});
