/**
 * GET /api/dashboard at the gateway (spec gateway.pattern: aggregation): three reads made in
 * parallel with the client's credentials, merged into one answer.
 *
 * Documented answers:
 * - 200 with `partial: false`: everything answered;
 * - 200 with `partial: true` and `unavailable: [{service, status, detail}]`: Exercise did not
 *   answer (or failed); the sessions are there, the missing part is empty;
 * - 401/403 as the services answered them: an authentication refusal is the client's answer;
 * - 502/503/504 problem+json: Leftover did not list the sessions, so there is no page to show.
 * Every read is bounded by the gateway's upstream timeout: never a hang.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { forwardedRequestStart, pathOf, problem, REQUEST_START_HEADER, sendProblem, type RequestStartProxies } from '@shellgrade/http';
import type { GatewayMiddleware } from '../gateway-proxy';
import { type UpstreamName } from '../route-table';
import { mergeDashboard, type Dashboard, type ProductionView, type SessionView, type StatementView } from './student-dashboard';
import { UpstreamReadError, type ReadUpstream, type UpstreamAnswer } from './upstream-reader';

export const DASHBOARD_PATH = '/api/dashboard';

/** Enough for a student's whole history; the list endpoints' own maximum. */
const LIST = '?limit=1000';

export interface DashboardAggregatorOptions {
  read: ReadUpstream;
  timeoutMs: number;
  /** The proxies in front whose X-Request-Start is kept (GatewayConfig.trustedProxies). */
  proxies: RequestStartProxies;
}

type Outcome = { ok: true; answer: UpstreamAnswer } | { ok: false; service: UpstreamName; status: number; detail: string };

export function createDashboardAggregator(options: DashboardAggregatorOptions): GatewayMiddleware {
  return (req, res, next) => {
    if (req.method !== 'GET' || pathOf(req.url ?? '/').toLowerCase() !== DASHBOARD_PATH) {
      next();
      return;
    }
    answerDashboard(req, res, options).catch((error: unknown) => {
      if (!res.headersSent) sendProblem(res, problem(502, `the dashboard could not be assembled: ${(error as Error).message}`));
    });
  };
}

async function answerDashboard(req: IncomingMessage, res: ServerResponse, { read, timeoutMs, proxies }: DashboardAggregatorOptions): Promise<void> {
  const headers = credentialsOf(req, proxies);
  const get = (service: UpstreamName, path: string): Promise<Outcome> =>
    read(service, path, headers, timeoutMs).then(
      (answer) => ({ ok: true, answer }),
      (error: unknown) => ({
        ok: false,
        service,
        status: error instanceof UpstreamReadError ? error.status : 502,
        detail: (error as Error).message,
      }),
    );
  const [sessions, statements, productions] = await Promise.all([
    get('leftover', `/api/business-sessions${LIST}`),
    get('exercise', `/api/student-statements${LIST}`),
    get('exercise', `/api/exercise-productions${LIST}`),
  ]);
  if (res.destroyed) return;
  const refusal = [sessions, statements, productions].find((o) => o.ok && (o.answer.status === 401 || o.answer.status === 403));
  if (refusal?.ok) return relayRefusal(res, refusal.answer);
  if (!isList(sessions)) return sendProblem(res, problem(failedStatus(sessions), `your sessions could not be listed: ${failedDetail(sessions, 'leftover')}`));
  const unavailable: Dashboard['unavailable'] = [];
  const listOrNothing = <T>(o: Outcome): T[] => {
    if (isList(o)) return o.answer.body as T[];
    unavailable.push({ service: 'exercise', status: failedStatus(o), detail: failedDetail(o, 'exercise') });
    return [];
  };
  const merged = mergeDashboard(sessions.answer.body as SessionView[], listOrNothing<StatementView>(statements), listOrNothing<ProductionView>(productions), unavailable);
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(JSON.stringify(merged));
}

function isList(o: Outcome): o is { ok: true; answer: UpstreamAnswer } {
  return o.ok && o.answer.status === 200 && Array.isArray(o.answer.body);
}

function failedStatus(o: Outcome): number {
  return o.ok ? 502 : o.status;
}

function failedDetail(o: Outcome, service: UpstreamName): string {
  if (!o.ok) return o.detail;
  const detail = (o.answer.body as { detail?: unknown } | null)?.detail;
  return `the ${service} service answered ${o.answer.status}${typeof detail === 'string' ? `: ${detail}` : ''}`;
}

function relayRefusal(res: ServerResponse, answer: UpstreamAnswer): void {
  const body = answer.body as { detail?: unknown } | null;
  sendProblem(res, problem(answer.status, typeof body?.detail === 'string' ? body.detail : 'authentication required'));
}

/** Who is asking, as the services authenticate and rate-limit it; nothing else of the request goes along. */
function credentialsOf(req: IncomingMessage, proxies: RequestStartProxies): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (req.headers.cookie) headers.cookie = req.headers.cookie;
  if (req.headers.authorization) headers.authorization = req.headers.authorization;
  const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(',');
  if (forwardedFor) headers['x-forwarded-for'] = forwardedFor;
  headers[REQUEST_START_HEADER] = forwardedRequestStart(req, Date.now(), proxies);
  return headers;
}
