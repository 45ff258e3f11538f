/** Where things live in a clone, from the sources (infra/src) or the build (dist/infra/src). */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

function findRepoRoot(start: string): string {
  let dir = start;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && existsSync(join(dir, 'infra', 'variants'))) {
      const { name } = JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string };
      if (name === 'shellgrade') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the shellgrade repository above ${start}`);
    dir = parent;
  }
}

export const REPO_ROOT = findRepoRoot(__dirname);
export const RUN_DIR = join(REPO_ROOT, 'run');
/** The release this clone builds (package.json), which tags the deployable app image. */
export const PACKAGE_VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** pm2 daemon shared with infra/bin/servers. */
export const PM2_HOME = join(RUN_DIR, 'pm2');
export const LOG_DIR = join(RUN_DIR, 'logs');
/** Generated files of the active variant (ecosystem, haproxy.cfg). */
export const VARIANT_RUN_DIR = join(RUN_DIR, 'variant');
export const STATE_FILE = join(RUN_DIR, 'variant.json');
export const HAPROXY_TEMPLATE = join(REPO_ROOT, 'infra', 'haproxy', 'haproxy.cfg.tmpl');
export const SERVERS_SCRIPT = join(REPO_ROOT, 'infra', 'bin', 'servers');

export function serviceMain(role: string): string {
  return join(REPO_ROOT, 'dist', 'services', role, 'src', 'main.js');
}

/** The OpenTelemetry preload, relative to the repository (the container images' working directory). */
export const TELEMETRY_PRELOAD = 'dist/libs/wiring/src/telemetry-preload.js';

/** OpenTelemetry preload every service is started with (libs/wiring/src/telemetry-preload.ts). */
export function telemetryPreload(): string {
  return join(REPO_ROOT, TELEMETRY_PRELOAD);
}
