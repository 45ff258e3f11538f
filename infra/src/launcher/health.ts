/** Readiness probes over HTTP, gRPC health and TCP, always bounded. */
import { connect } from 'node:net';
import { grpcServing } from '@shellgrade/grpc-edge';

export async function httpOk(url: string, timeoutMs = 2_000): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** A variant process is ready when /health answers 200 and, for a gRPC edge (transport grpc), grpc.health.v1 answers SERVING. */
export async function processReady(p: { healthUrl: string; grpcHealthAddress?: string }): Promise<boolean> {
  if (!(await httpOk(p.healthUrl))) return false;
  return p.grpcHealthAddress === undefined || grpcServing(p.grpcHealthAddress);
}

/** True when something accepts connections on 127.0.0.1:<port>. */
export function portInUse(port: number, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (inUse: boolean) => {
      socket.destroy();
      resolve(inUse);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Servers HAProxy does not yet consider UP, from its stats CSV. A replica can answer /health
 * before HAProxy's own checks have marked it UP (it starts them as DOWN when it comes up first),
 * and a request in that window gets a 503 from the proxy.
 */
export async function haproxyServersNotUp(statsCsvUrl: string, timeoutMs = 2_000): Promise<string[] | null> {
  try {
    const res = await fetch(statsCsvUrl, { signal: AbortSignal.timeout(timeoutMs) });
    if (res.status !== 200) return null;
    const [header, ...rows] = (await res.text()).trim().split('\n');
    const cols = header.replace(/^# /, '').split(',');
    const [px, sv, st] = ['pxname', 'svname', 'status'].map((c) => cols.indexOf(c));
    return rows
      .map((r) => r.split(','))
      .filter((f) => f[sv] !== 'FRONTEND' && f[sv] !== 'BACKEND' && !f[st]?.startsWith('UP'))
      .map((f) => `${f[px]}/${f[sv]} ${f[st]}`);
  } catch {
    return null;
  }
}
