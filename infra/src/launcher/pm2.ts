/**
 * A small promise wrapper over pm2's programmatic API, bound to the repo's daemon
 * (PM2_HOME=run/pm2, shared with infra/bin/servers). pm2 reads PM2_HOME when it is first
 * required, hence the lazy require after setting it.
 */
import { mkdirSync } from 'node:fs';
import type * as Pm2 from 'pm2';
import { PM2_HOME } from '../paths';

export interface Pm2Process {
  name: string;
  pid: number;
  status: string;
  restarts: number;
  cpu: number;
  memory: number;
  uptimeSince: number;
}

let api: typeof Pm2 | undefined;
/** The one connection (being) made: concurrent callers share it, or pm2 opens a second socket that disconnect() leaves open. */
let connection: Promise<void> | undefined;

function pm2(): typeof Pm2 {
  if (!api) {
    process.env.PM2_HOME = PM2_HOME;
    mkdirSync(PM2_HOME, { recursive: true });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    api = require('pm2') as typeof Pm2;
  }
  return api;
}

function call<T>(fn: (cb: (err: Error | null, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => fn((err, value) => (err ? reject(err) : resolve(value))));
}

/** Connects to (or spawns) the shared daemon. */
export function connect(): Promise<void> {
  connection ??= call<void>((cb) => pm2().connect((err) => cb(err ?? null, undefined))).catch((err: unknown) => {
    connection = undefined;
    throw err;
  });
  return connection;
}

/** Lets the CLI exit; the daemon and its apps keep running. */
export function disconnect(): void {
  if (connection) pm2().disconnect();
  connection = undefined;
}

let holders = 0;

/**
 * Runs `work` with the daemon connection held, and lets it go when the last overlapping caller
 * is done: a long-lived caller (the bench harness) keeps no socket open between calls, so it can
 * exit, and two overlapping calls never cut each other's connection.
 */
export async function withConnection<T>(work: () => Promise<T>): Promise<T> {
  holders++;
  try {
    return await work();
  } finally {
    if (--holders === 0) disconnect();
  }
}

export async function list(): Promise<Pm2Process[]> {
  await connect();
  const procs = await call<Pm2.ProcessDescription[]>((cb) => pm2().list((err, l) => cb(err ?? null, l)));
  return procs.map((p) => {
    const env = (p.pm2_env ?? {}) as { status?: string; restart_time?: number; pm_uptime?: number };
    return {
      name: p.name ?? '',
      pid: p.pid ?? 0,
      status: env.status ?? 'unknown',
      restarts: env.restart_time ?? 0,
      cpu: p.monit?.cpu ?? 0,
      memory: p.monit?.memory ?? 0,
      uptimeSince: env.pm_uptime ?? 0,
    };
  });
}

/** Starts every app of an ecosystem (the object, not its file: see launcher.ts writeRunFiles). */
export async function startEcosystem(apps: { apps: object[] }): Promise<void> {
  await connect();
  await call<unknown>((cb) => pm2().start(apps as Pm2.StartOptions, (err, procs) => cb(err ?? null, procs)));
}

/** Stops and forgets an app; absent apps are fine. */
export async function remove(name: string): Promise<void> {
  await connect();
  await call<unknown>((cb) =>
    pm2().delete(name, (err, procs) => {
      const missing = err && /not found|process or namespace/i.test(String(err.message ?? err));
      cb(missing ? null : (err ?? null), procs);
    }),
  );
}
