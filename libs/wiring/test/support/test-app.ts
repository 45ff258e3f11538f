/**
 * A Nest app of the given modules, configured as its service would configure it (configureHttpApp
 * with the spec's HTTP options) and initialised, for supertest: what every in-process HTTP test of a
 * composition root starts from.
 */
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { configureHttpApp } from '@shellgrade/http';
import type { ServiceConfig } from '@shellgrade/variant';
import { httpOptionsOf } from '../../src';

type ModuleImports = Parameters<typeof Test.createTestingModule>[0]['imports'];

export async function startTestApp(imports: ModuleImports, cfg: ServiceConfig): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({ imports }).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>();
  configureHttpApp(app, httpOptionsOf(cfg, 'test'));
  await app.init();
  return app;
}
