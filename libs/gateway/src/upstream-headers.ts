/**
 * Response-header hygiene for proxied exchanges: the gateway owns CORS (set by its own
 * CORS middleware before proxying), so upstream Access-Control-* headers are dropped and
 * Vary is merged instead of overwritten.
 */
import type { IncomingHttpHeaders } from 'node:http';

export function stripUpstreamCors(headers: IncomingHttpHeaders): void {
  for (const name of Object.keys(headers)) {
    if (name.toLowerCase().startsWith('access-control-')) delete headers[name];
  }
}

/** Union of two Vary values, first spelling wins, order kept. */
export function mergeVary(ours: unknown, theirs: unknown): string {
  const fields: string[] = [];
  for (const value of [ours, theirs]) {
    if (value === undefined || value === null) continue;
    const parts = Array.isArray(value) ? value.map(String) : String(value).split(',');
    for (const part of parts) {
      const field = part.trim();
      if (field && !fields.some((f) => f.toLowerCase() === field.toLowerCase())) fields.push(field);
    }
  }
  return fields.join(', ');
}

/** Hop-by-hop request headers (RFC 9110 §7.6.1) to drop before forwarding upstream. */
export function hopByHopHeaders(connectionHeader: string | string[] | undefined): string[] {
  const listed = String(connectionHeader ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  return [...new Set(['connection', 'keep-alive', 'proxy-connection', 'upgrade', ...listed])].filter(
    (name) => name !== 'close',
  );
}
