/**
 * Brings a variant up on this machine and down again: native servers, migrations, one pm2
 * app per replica (+ HAProxy from the template), readiness of every process, and the record
 * of the active variant in run/variant.json.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  entryUrl,
  HAPROXY_PORTS,
  LOOPBACK,
  loadConnections,
  loadVariant,
  needsHaproxy,
  variantProcesses,
  variantRoles,
  refuseUnsafeExposure,
  type PlacementOptions,
  type VariantProcess,
  type VariantSpec,
  hopRefusal,
  type HopRoute,
  VariantSpecError,
} from '@shellgrade/variant';
import { flushContextCache } from '@shellgrade/cache';
import { haproxyModel, renderHaproxyConfig } from '../haproxy/config';
import { LOG_DIR, SERVERS_SCRIPT, serviceMain, VARIANT_RUN_DIR } from '../paths';
import { installationSecrets } from '../secrets';
import { ecosystem, ecosystemSource, HAPROXY_BIN, type Ecosystem } from './ecosystem';
import { withCpuGroups } from './cpu-groups';
import { haproxyServersNotUp, httpOk, portInUse, processReady, sleep } from './health';
import { withVariantLock } from './lock';
import { ensureServers, managedServers, migrate, SERVER_PORTS } from './native-servers';
import * as pm2 from './pm2';
import { clearState, readState, writeState, type ActiveVariant } from './state';

/** pm2 names of variant processes (never the sg-<server> apps of infra/bin/servers). */
export const VARIANT_APP = /^sg-(?:(?:monolith|gateway|leftover|exercise)-\d+|haproxy)$/;

export interface UpOptions {
  /** Seconds to wait for every process to answer /health. */
  timeoutS?: number;
  /** Skip `servers up` and migrations (they are already running). */
  skipServers?: boolean;
  /** Address the entry listens on (default loopback); beyond loopback the exposure rule applies. */
  listen?: string;
  /** Expose a variant with unsafe grader settings (isolation none, blocking exec) anyway. */
  forceExposed?: boolean;
  /** cache: redis — keep what the read-path cache holds (default: flush it, every `up` starts cold, paper 001). */
  keepCache?: boolean;
  /**
   * V8 CPU profiles of every service into this folder (one subfolder per process, written when
   * the process exits: the next `up` or `down` flushes them). Restarts the variant if it runs unprofiled.
   */
  cpuProfileDir?: string;
  /** One internal hop through a fault proxy (the latency fault); restarts the variant if it runs unrouted. */
  hop?: HopRoute;
  /** Scale-model testbed: each process is told its cpu group under this root (cpu-groups.ts); restarts the variant if it runs without. */
  cpuGroupRoot?: string;
}

/** A variant with the Redis read-path cache starts cold unless told to keep it: runs compare from the same state. */
async function coldCache(spec: VariantSpec, keepCache: boolean | undefined): Promise<void> {
  if (spec.cache !== 'redis') return;
  if (keepCache) {
    log('cache: kept (--keep-cache)');
    return;
  }
  const url = loadConnections().REDIS_URL;
  try {
    log(`cache: cold start, ${await flushContextCache({ url })} cached keys deleted (--keep-cache keeps them)`);
  } catch (error) {
    throw new Error(`cache: could not empty the read-path cache at ${url}: ${(error as Error).message} (is redis up? npm run servers -- up redis)`);
  }
}

export interface ProcessStatus {
  name: string;
  role: string;
  pid: number;
  port: number;
  status: string;
  restarts: number;
  cpu: number;
  memory: number;
  healthy?: boolean;
}

export interface VariantStatus {
  variant: string | null;
  entry: string | null;
  processes: ProcessStatus[];
  servers: { name: string; pm2: string; pid: number; port: number; status: string }[];
}

const log = (msg: string) => process.stderr.write(`[variant] ${msg}\n`);

/** What makes two `up`s the same: the spec, where it listens, and whether it is being profiled. */
function specHash(spec: VariantSpec, placement: PlacementOptions, cpuProfileDir?: string, cpuGroupRoot?: string): string {
  return createHash('sha256').update(JSON.stringify({ spec, placement, cpuProfileDir, cpuGroupRoot })).digest('hex').slice(0, 16);
}

function stateOf(spec: VariantSpec, source: string, placement: PlacementOptions, cpuProfileDir?: string, cpuGroupRoot?: string): ActiveVariant {
  return {
    variant: spec.name,
    source,
    specHash: specHash(spec, placement, cpuProfileDir, cpuGroupRoot),
    entry: entryUrl(spec, placement.listen),
    processes: variantProcesses(spec, placement).map(({ name, role, port, healthUrl }) => ({ name, role, port, healthUrl })),
    servers: managedServers(spec),
    startedAt: new Date().toISOString(),
  };
}

/** Already running this exact spec, every process online and healthy? */
async function alreadyUp(spec: VariantSpec, placement: PlacementOptions, cpuProfileDir?: string, cpuGroupRoot?: string): Promise<boolean> {
  const state = readState();
  if (!state || state.variant !== spec.name || state.specHash !== specHash(spec, placement, cpuProfileDir, cpuGroupRoot)) return false;
  const apps = new Map((await pm2.list()).map((p) => [p.name, p]));
  const procs = variantProcesses(spec, placement);
  if (!procs.every((p) => apps.get(p.name)?.status === 'online')) return false;
  const health = await Promise.all(procs.map((p) => processReady(p)));
  return health.every(Boolean);
}

/** Stops every variant process pm2 knows (whatever variant started it) and waits for their ports. */
export async function stopVariantProcesses(): Promise<string[]> {
  const state = readState();
  const names = (await pm2.list()).map((p) => p.name).filter((n) => VARIANT_APP.test(n));
  for (const name of names) await pm2.remove(name);
  const ports = state?.processes.map((p) => p.port) ?? [];
  const deadline = Date.now() + 15_000;
  for (const port of ports) {
    while ((await portInUse(port)) && Date.now() < deadline) await sleep(100);
  }
  return names;
}

function checkBuilt(spec: VariantSpec): void {
  for (const role of variantRoles(spec)) {
    const main = serviceMain(role);
    if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first`);
  }
  if (needsHaproxy(spec) && !existsSync(HAPROXY_BIN)) throw new Error(`${HAPROXY_BIN} is missing: run \`npm run servers -- install haproxy\``);
}

/** Each port must be free; a just-stopped process gets a few seconds to release it. */
async function checkPortsFree(procs: VariantProcess[], graceMs = 10_000): Promise<void> {
  const deadline = Date.now() + graceMs;
  for (const p of procs) {
    while ((await portInUse(p.port)) && Date.now() < deadline) await sleep(200);
    if (await portInUse(p.port)) {
      let owner = '';
      try {
        owner = execFileSync('ss', ['-ltnpH', `sport = :${p.port}`], { encoding: 'utf8' }).trim();
      } catch {
        /* ss is a nicety for the message */
      }
      throw new Error(`port ${p.port} (for ${p.name}) is taken by a process pm2 does not manage${owner ? `: ${owner}` : ''}`);
    }
  }
}

/**
 * Writes run/variant/{haproxy.cfg,ecosystem.config.js} (HAProxy's config checked before use) and
 * returns the apps written, for pm2 to start as they are: pm2 would `require` the file, and a
 * process that already required it once (the bench harness, a test) may be handed its old content.
 */
function writeRunFiles(spec: VariantSpec, placement: PlacementOptions, cpuProfileDir?: string): Ecosystem {
  mkdirSync(VARIANT_RUN_DIR, { recursive: true });
  mkdirSync(LOG_DIR, { recursive: true });
  const haproxyConfig = join(VARIANT_RUN_DIR, 'haproxy.cfg');
  if (needsHaproxy(spec)) {
    writeFileSync(haproxyConfig, renderHaproxyConfig(haproxyModel(spec, { kind: 'loopback' }, placement.listen)));
    try {
      execFileSync(HAPROXY_BIN, ['-c', '-q', '-f', haproxyConfig], { stdio: 'pipe' });
    } catch (err) {
      const out = err as { stdout?: Buffer; stderr?: Buffer };
      throw new Error(`generated ${haproxyConfig} is invalid:\n${out.stderr?.toString() ?? ''}${out.stdout?.toString() ?? ''}`);
    }
  }
  const file = join(VARIANT_RUN_DIR, 'ecosystem.config.js');
  // It carries the installation's token secret and scrape token: owner-only, also when it already existed.
  const { jwtSecret, scrapeToken } = installationSecrets();
  const options = { haproxyConfig, placement, jwtSecret, scrapeToken, cpuProfileDir };
  writeFileSync(file, ecosystemSource(spec, options), { mode: 0o600 });
  chmodSync(file, 0o600);
  return ecosystem(spec, options);
}

export function logTail(name: string, lines = 30): string {
  const parts: string[] = [];
  for (const kind of ['err', 'out']) {
    const file = join(LOG_DIR, `${name}.${kind}.log`);
    if (!existsSync(file)) continue;
    const tail = readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    if (tail) parts.push(`--- ${file} (last ${lines} lines)\n${tail}`);
  }
  return parts.join('\n') || `(no logs for ${name} in ${LOG_DIR})`;
}

/** With HAProxy in the variant: true once it counts every backend server UP (else notes the laggards in `pending`). */
async function haproxyRoutesToAll(procs: VariantProcess[], pending: Set<string>): Promise<boolean> {
  const proxy = procs.find((p) => p.role === 'haproxy');
  if (!proxy) return true;
  const notUp = await haproxyServersNotUp(`http://127.0.0.1:${HAPROXY_PORTS.stats}/stats;csv`);
  if (notUp !== null && notUp.length === 0) return true;
  pending.add(proxy.name);
  return false;
}

/** Polls /health of every process (and HAProxy's view of its servers); fails early on a crash loop, with the culprits' log tails. */
async function waitHealthy(procs: VariantProcess[], timeoutS: number): Promise<void> {
  const started = Date.now();
  const pending = new Set(procs.map((p) => p.name));
  let lastCrashCheck = 0;
  while (pending.size > 0) {
    await Promise.all(
      procs
        .filter((p) => pending.has(p.name))
        .map(async (p) => {
          if (await processReady(p)) pending.delete(p.name);
        }),
    );
    if (pending.size === 0 && (await haproxyRoutesToAll(procs, pending))) break;
    const elapsed = Date.now() - started;
    if (elapsed - lastCrashCheck > 2_000) {
      lastCrashCheck = elapsed;
      const crashing = (await pm2.list()).filter((a) => pending.has(a.name) && (a.restarts >= 3 || a.status === 'errored'));
      if (crashing.length > 0) {
        const names = crashing.map((a) => `${a.name} (${a.status}, ${a.restarts} restarts)`).join(', ');
        throw new Error(`crash loop: ${names}\n${crashing.map((a) => logTail(a.name)).join('\n')}`);
      }
    }
    if (elapsed > timeoutS * 1000) {
      const names = [...pending];
      throw new Error(`not healthy after ${timeoutS} s: ${names.join(', ')}\n${names.map((n) => logTail(n)).join('\n')}`);
    }
    await sleep(250);
  }
}

function placementOf(options: UpOptions): PlacementOptions {
  return {
    ...(options.listen ? { listen: options.listen } : {}),
    ...(options.listen && options.forceExposed ? { acceptWeakIsolation: true } : {}),
    ...(options.hop ? { hop: options.hop } : {}),
  };
}

/** Where the processes write their CPU profiles, absolute (it is part of what makes two `up`s the same). */
function profileDirOf(options: UpOptions): string | undefined {
  return options.cpuProfileDir ? resolve(options.cpuProfileDir) : undefined;
}

/**
 * Whether `up(nameOrPath, options)` would find its variant already running: the same spec
 * (overrides such as a benchmark's hash cost included), placement and profiling, every process
 * healthy. A caller that leaves things as it found them asks this, not whether a variant of the
 * same name is up.
 */
export async function runsAlready(nameOrPath: string, options: UpOptions = {}): Promise<boolean> {
  return alreadyUp(loadVariant(nameOrPath), placementOf(options), profileDirOf(options), options.cpuGroupRoot);
}

export async function up(nameOrPath: string, options: UpOptions = {}): Promise<VariantStatus> {
  const spec = loadVariant(nameOrPath);
  const placement = placementOf(options);
  const refusal = options.hop && hopRefusal(spec, options.hop.hop);
  if (refusal) throw new VariantSpecError(`--hop-via: ${refusal}`);
  // Before anything starts: the paper's unsafe grader settings stay on loopback unless forced.
  refuseUnsafeExposure(spec, options.listen ?? LOOPBACK, { force: options.forceExposed, forceFlag: '--force-exposed' });
  return withVariantLock(async () => {
    const source = nameOrPath;
    const cpuProfileDir = profileDirOf(options);
    if (await alreadyUp(spec, placement, cpuProfileDir, options.cpuGroupRoot)) {
      log(`${spec.name} is already up and healthy`);
      if (!options.skipServers) ensureServers(spec);
      await coldCache(spec, options.keepCache);
      return status({ probe: true });
    }
    checkBuilt(spec);
    const stopped = await stopVariantProcesses();
    clearState();
    if (stopped.length > 0) log(`stopped the previous variant (${stopped.length} processes)`);
    if (!options.skipServers) {
      ensureServers(spec);
      migrate();
    }
    await coldCache(spec, options.keepCache);
    const procs = variantProcesses(spec, placement);
    await checkPortsFree(procs);
    const apps = withCpuGroups(writeRunFiles(spec, placement, cpuProfileDir), options.cpuGroupRoot);
    const begun = Date.now();
    log(`starting ${spec.name}: ${procs.map((p) => p.name).join(' ')}`);
    await pm2.startEcosystem(apps);
    writeState(stateOf(spec, source, placement, cpuProfileDir, options.cpuGroupRoot));
    try {
      await waitHealthy(procs, options.timeoutS ?? 180);
    } catch (err) {
      // Nothing half-up keeps burning CPU in a restart loop; the logs stay in run/logs.
      await stopVariantProcesses();
      clearState();
      throw err;
    }
    log(`${spec.name} healthy in ${((Date.now() - begun) / 1000).toFixed(1)} s; entry ${entryUrl(spec, placement.listen)}`);
    return status({ probe: true });
  });
}

export async function down(options: { all?: boolean } = {}): Promise<string[]> {
  return withVariantLock(async () => {
    const state = readState();
    const stopped = await stopVariantProcesses();
    clearState();
    if (options.all) {
      // Stopping servers is the job of infra/bin/servers; `servers down` stops all it knows.
      execFileSync('bash', [SERVERS_SCRIPT, 'down'], { stdio: ['ignore', 2, 2] });
    }
    log(stopped.length > 0 ? `stopped ${state?.variant ?? 'variant'}: ${stopped.join(' ')}` : 'no variant process was running');
    return stopped;
  });
}

export async function status(options: { probe?: boolean } = {}): Promise<VariantStatus> {
  const state = readState();
  const apps = new Map((await pm2.list()).map((p) => [p.name, p]));
  const processes: ProcessStatus[] = await Promise.all(
    (state?.processes ?? []).map(async (p) => {
      const app = apps.get(p.name);
      const row: ProcessStatus = {
        name: p.name,
        role: p.role,
        pid: app?.pid ?? 0,
        port: p.port,
        status: app?.status ?? 'absent',
        restarts: app?.restarts ?? 0,
        cpu: app?.cpu ?? 0,
        memory: app?.memory ?? 0,
      };
      if (options.probe) row.healthy = await httpOk(p.healthUrl);
      return row;
    }),
  );
  const servers = (state?.servers ?? ['postgres']).map((name) => {
    const app = apps.get(`sg-${name}`);
    return {
      name,
      pm2: `sg-${name}`,
      pid: app?.pid ?? 0,
      port: SERVER_PORTS[name as keyof typeof SERVER_PORTS] ?? 0,
      status: app?.status ?? 'absent',
    };
  });
  return { variant: state?.variant ?? null, entry: state?.entry ?? null, processes, servers };
}
