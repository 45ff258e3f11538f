/**
 * Who may read a service's operational endpoints (/health detail, /metrics, /docs): only
 * callers on the service's own network (loopback, private or link-local addresses) that came
 * straight to it. A request relayed by a proxy (X-Forwarded-For, Forwarded) comes from the
 * outside, whatever the proxy's own address.
 */
import { BlockList, isIPv4 } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { problem, type ProblemSink, sendProblem } from './problem';

/** `internal`: operational endpoints for internal callers only; `public`: for anyone (development). The spec's `http.opsAccess` chooses. */
export type OpsAccess = 'internal' | 'public';

const internalNetworks = new BlockList();
for (const [net, prefix] of [['127.0.0.0', 8], ['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['169.254.0.0', 16]] as const) {
  internalNetworks.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [['::1', 128], ['fc00::', 7], ['fe80::', 10]] as const) internalNetworks.addSubnet(net, prefix, 'ipv6');

export function isInternalAddress(address: string | undefined): boolean {
  if (!address) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const ip = mapped ?? address;
  return internalNetworks.check(ip, isIPv4(ip) ? 'ipv4' : 'ipv6');
}

export function isInternalRequest(req: IncomingMessage): boolean {
  if (req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined) return false;
  return isInternalAddress(req.socket.remoteAddress);
}

/** Whether this request may see operational detail under `access`. */
export const mayReadOps = (req: IncomingMessage, access: OpsAccess): boolean => access === 'public' || isInternalRequest(req);

const OPS_PATHS = /^\/(metrics|docs)(\/|-json|-yaml|$)/;

/**
 * Express middleware: /metrics and /docs answer 404 problem+json to callers that may not read
 * them (as if absent: nothing to probe). /health stays public for load balancers; its detail is
 * trimmed by its handler (ObservabilityModule).
 */
export function opsEndpointsGate(access: OpsAccess) {
  return (req: IncomingMessage & { path?: string }, res: ProblemSink, next: () => void): void => {
    if (access === 'public' || !OPS_PATHS.test(req.path ?? req.url ?? '/') || isInternalRequest(req)) {
      next();
      return;
    }
    sendProblem(res, problem(404, 'not found'));
  };
}
