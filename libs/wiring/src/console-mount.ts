/**
 * The researchers' console (libs/console-server) mounted where the spec makes a process serve the
 * browser app — the one door to it (`@shellgrade/wiring/console`, apart from the wiring's index,
 * so a service that serves no app, the exercise service, loads none of it):
 *
 *   serveWebAppWithConsole         the monolith, and the leftover when HAProxy is the gateway
 *                                  (gateway.engine haproxy sends it every path that is not the
 *                                  exercise service's): staff read /ops, admins launch
 *   serveGatewayWebAppWithConsole  the Node gateway: /ops for operators, and for staff where the
 *                                  gateway checks logins itself (pattern offloading); no actions
 *   standaloneConsole              `npm run console` (services/console): the console outside every
 *                                  variant, signed in with its own token
 *
 * Each is handed the same presets, results folder and harness, read here off the process's
 * connections and the presets' specs.
 */
import { REQUEST_AUTHENTICATOR, type RequestAuthenticator } from '@shellgrade/auth';
import { consoleApp, consoleToken, type AppWithConsoleOptions, type PresetSummary, serveAppWithConsole } from '@shellgrade/console-server';
import { listVariants, loadVariant, type Connections, type ServiceConfig } from '@shellgrade/variant';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Express } from 'express';
import { join, resolve } from 'node:path';
import { consoleAdminCheck, consoleStaffCheck } from './console-staff';
import { opsHostNamesOf } from './service-settings';

/**
 * The browser app at / with the console's /ops for staff and operators, served by a process that
 * checks logins itself: the monolith, and the leftover when HAProxy is the gateway.
 */
export function serveWebAppWithConsole(app: NestExpressApplication, cfg: ServiceConfig): void {
  const authenticator = app.get<symbol, RequestAuthenticator>(REQUEST_AUTHENTICATOR, { strict: false });
  serveAppWithConsole(app, { ...webAppOptionsOf(cfg), isStaff: consoleStaffCheck(authenticator), isAdmin: consoleAdminCheck(authenticator) });
}

/** The gateway's: /ops for operators, and for staff accounts where the gateway checks logins itself (`authenticator`, pattern offloading). */
export function serveGatewayWebAppWithConsole(app: NestExpressApplication, cfg: ServiceConfig, authenticator?: RequestAuthenticator): void {
  serveAppWithConsole(app, { ...webAppOptionsOf(cfg), ...(authenticator ? { isStaff: consoleStaffCheck(authenticator) } : {}) });
}

/** The standalone console (npm run console), signed in with the token kept in `tokenFile` (made on first use). */
export function standaloneConsole(connections: Pick<Connections, 'JAEGER_QUERY_URL' | 'SG_RESULTS_DIR' | 'SG_OPS_HOST_NAMES'>, tokenFile: string): Express {
  return consoleApp(consoleServerOptionsOf(connections, consoleToken(tokenFile)));
}

/** The browser app beside the API (monolith and gateway): built into dist/apps/web, the same depth from here as from a service's main. */
export function webAppOptionsOf(cfg: ServiceConfig): AppWithConsoleOptions {
  return {
    ...consolePartsOf(cfg.connections),
    maxArchiveBytes: cfg.spec.http.maxArchiveBytes,
    opsAccess: cfg.spec.http.opsAccess,
    ownVariant: cfg.spec.name,
  };
}

/**
 * The standalone console's (npm run console, services/console): the same app, presets, results
 * and harness as a variant's console, and no variant of its own. It takes no archive: the
 * limit is only what the browser's config says.
 */
export function consoleServerOptionsOf(connections: Pick<Connections, 'JAEGER_QUERY_URL' | 'SG_RESULTS_DIR' | 'SG_OPS_HOST_NAMES'>, token: string): Parameters<typeof consoleApp>[0] {
  const { opsHostNames } = opsHostNamesOf(connections);
  return { ...consolePartsOf(connections), maxArchiveBytes: DEFAULT_MAX_ARCHIVE_BYTES, token, ...(opsHostNames ? { hostNames: opsHostNames } : {}) };
}

const DEFAULT_MAX_ARCHIVE_BYTES = 1024 * 1024;

function consolePartsOf(connections: Pick<Connections, 'JAEGER_QUERY_URL' | 'SG_RESULTS_DIR'>) {
  const resultsDir = resolve(connections.SG_RESULTS_DIR);
  return {
    dir: join(__dirname, '../../../apps/web'),
    jaegerQueryUrl: connections.JAEGER_QUERY_URL,
    presets: firstCallOnly(presetSummaries),
    resultsDir,
    // The console's compare and launch start the harness as a shell user does (npm run bench = node dist/benchmarks/src/cli.js)
    bench: { node: process.execPath, script: join(__dirname, '../../../benchmarks/src/cli.js'), cwd: join(__dirname, '../../../..'), resultsDir },
  };
}

/** Computed when first asked for, then kept: the presets do not change while a process runs. */
function firstCallOnly<T>(compute: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: compute() }).v;
}

/** The console's preset table: each preset's description and shape (a broken one says why). */
export function presetSummaries(): PresetSummary[] {
  let names: string[];
  try {
    names = listVariants();
  } catch {
    return [];
  }
  return names.map((name) => {
    try {
      const spec = loadVariant(name);
      return { name, description: spec.description, topology: spec.topology, dispatch: spec.dispatch, transport: spec.transport, gateway: spec.gateway.pattern };
    } catch (error) {
      return { name, description: '', error: (error as Error).message };
    }
  });
}
