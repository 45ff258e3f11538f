// The fault proxy (Shopify's toxiproxy, built by `servers install toxiproxy`): its server, one
// proxy per routed hop, and the toxics added and removed through its HTTP API.
import { spawn, execFile } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Hop } from '@shellgrade/variant';
import { repoRoot } from '../paths';

/**
 * The API the harness drives (loopback only) and the hop proxy's address. Both below Linux's
 * ephemeral range (32768–60999): at 58474 the API once failed to bind, "address already in
 * use", because an outgoing connection of a load test had been given that local port.
 */
export const TOXIPROXY_API = `http://127.0.0.1:${process.env.SG_TOXIPROXY_PORT ?? 28474}`;
export const HOP_LISTEN = `127.0.0.1:${process.env.SG_HOP_PROXY_PORT ?? 28600}`;

/** A hop the variant runs routed through a proxy of the fault proxy (route.ts). */
export interface RoutedHop {
  hop: Hop;
  /** The toxiproxy API and the proxy's name there. */
  api: string;
  proxy: string;
  /** Where the callers connect, and where the proxy forwards. */
  listen: string;
  upstream: string;
}

/** The name of the one toxic a fault adds (removed by name). */
export const FAULT_TOXIC = 'sg-fault';

export interface Toxic {
  type: 'latency' | 'timeout' | 'reset_peer' | 'bandwidth' | 'slicer' | 'limit_data' | 'slow_close';
  /** downstream: the upstream's answers to the caller; upstream: the caller's requests. */
  stream: 'downstream' | 'upstream';
  /** Share of the connections it applies to. */
  toxicity: number;
  attributes: Record<string, number>;
}

async function api(path: string, init: RequestInit = {}, base = TOXIPROXY_API): Promise<Response> {
  return fetch(`${base}${path}`, { ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });
}

async function answering(base: string): Promise<boolean> {
  try {
    return (await api('/version', {}, base)).ok;
  } catch {
    return false;
  }
}

/**
 * Starts the proxy server (detached: it must outlive nothing but the harness, which kills it by
 * pid) unless one already answers on the API port. Null pid: one was running, not ours to kill.
 */
export async function startToxiproxy(logFile: string, base = TOXIPROXY_API): Promise<{ pid: number | null }> {
  if (await answering(base)) {
    await api('/reset', { method: 'POST' }, base);
    return { pid: null };
  }
  const { stdout } = await promisify(execFile)('bash', [join(repoRoot(), 'infra', 'bin', 'servers'), 'tool-path', 'toxiproxy'], { cwd: repoRoot() });
  const { hostname, port } = new URL(base);
  const log = openSync(logFile, 'a');
  const child = spawn(stdout.trim(), ['-host', hostname, '-port', port], { detached: true, stdio: ['ignore', log, log] });
  closeSync(log);
  child.unref();
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`toxiproxy exited ${code} before answering (log: ${logFile})`))));
  // Event-based: each probe waits for the previous answer; the exit of the child ends the wait.
  for (;;) {
    if (await Promise.race([answering(base), exited])) return { pid: child.pid! };
    await Promise.race([new Promise((r) => setTimeout(r, 100)), exited]);
  }
}

async function ok(res: Response, what: string): Promise<void> {
  if (!res.ok) throw new Error(`toxiproxy ${what}: HTTP ${res.status} ${await res.text()}`);
}

/** (Re)creates proxy `name`: callers connect to `listen`, it forwards to `upstream`. */
export async function createProxy(name: string, listen: string, upstream: string, base = TOXIPROXY_API): Promise<void> {
  const del = await api(`/proxies/${name}`, { method: 'DELETE' }, base);
  if (!del.ok && del.status !== 404) await ok(del, `delete proxy ${name}`);
  await ok(await api('/proxies', { method: 'POST', body: JSON.stringify({ name, listen, upstream, enabled: true }) }, base), `create proxy ${name}`);
}

export async function addToxic(proxy: string, toxic: Toxic, base = TOXIPROXY_API): Promise<void> {
  await ok(await api(`/proxies/${proxy}/toxics`, { method: 'POST', body: JSON.stringify({ name: FAULT_TOXIC, ...toxic }) }, base), `add toxic to ${proxy}`);
}

/** A toxic already gone (404) is removed. */
export async function removeToxic(proxy: string, toxic = FAULT_TOXIC, base = TOXIPROXY_API): Promise<void> {
  const res = await api(`/proxies/${proxy}/toxics/${toxic}`, { method: 'DELETE' }, base);
  if (res.status !== 404) await ok(res, `remove toxic ${toxic} of ${proxy}`);
}
