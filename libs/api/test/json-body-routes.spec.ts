/**
 * Every route of the API that takes a JSON body reads it after its guards: its body parameter is
 * @JsonBody() (libs/http json-bodies.ts), which binds the parser to the route. Nest's own @Body()
 * binds nothing now that no interceptor is global: its body would stay unread (undefined), and a
 * guard-less parse would be back if someone made the parser global again to fix that.
 */
import 'reflect-metadata';
import { PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { parsesJsonBody } from '@shellgrade/http';
import * as api from '../src';

type Handler = (...args: unknown[]) => unknown;

/** The API's controllers: the exported classes Nest would route to. */
function controllers(): { name: string; prototype: Record<string, unknown> }[] {
  const exported: unknown[] = Object.values(api);
  return exported.filter((v): v is { name: string; prototype: Record<string, unknown> } => typeof v === 'function' && Reflect.hasMetadata(PATH_METADATA, v));
}

/** `Controller.method` of every route handler with a body parameter (Nest's RouteParamtypes.BODY). */
function routesTakingABody(): { name: string; handler: Handler }[] {
  return controllers().flatMap((c) =>
    Object.getOwnPropertyNames(c.prototype)
      .filter((m) => m !== 'constructor')
      .filter((m) => {
        const args: Record<string, unknown> = Reflect.getMetadata(ROUTE_ARGS_METADATA, c, m) ?? {};
        return Object.keys(args).some((k) => k.split(':')[0] === String(RouteParamtypes.BODY));
      })
      .map((m) => ({ name: `${c.name}.${m}`, handler: c.prototype[m] as Handler })),
  );
}

describe('JSON bodies are parsed per route, after the guards', () => {
  it('finds the controllers and the routes that take a body (the check below is not vacuous)', () => {
    expect(controllers().length).toBeGreaterThanOrEqual(9);
    expect(routesTakingABody().map((r) => r.name)).toEqual(expect.arrayContaining(['AuthController.login', 'ProductionController.submit']));
  });

  it('reads every route body through @JsonBody()', () => {
    const unbound = routesTakingABody().filter((r) => !parsesJsonBody(r.handler)).map((r) => r.name);
    expect(unbound).toEqual([]);
  });
});
