/**
 * SESSION_PRODUCTIONS in msa variants — the productions live with another service, so this
 * "repository" reads them over HTTP: the Leftover service asks the Exercise service for every
 * production of a session (GET /api/exercise-productions/by-session/:id) on behalf of the
 * teacher who asked for the report (its access token as bearer), at the upstream its process
 * config names (a replica, or the HAProxy frontend of a replicated tier), bounded by a timeout.
 * Failures become problem+json the teacher can act on: 504 when the Exercise service is too
 * slow, 503 when it cannot be reached or fails, its own 401/403 passed on.
 *
 * With `transport: grpc` too this read is REST, to replica 0's HTTP edge (process config
 * upstreams.exerciseUrl): the services' gRPC contract (libs/grpc-edge) carries the gateway's
 * client requests, and one bulk read per report gains nothing from a second contract.
 */
import { DomainError, type OnBehalfOf, type SessionProductionRecord, type SessionProductionsSource } from '@shellgrade/domain';
import { IDENTITY_ASSERTION_HEADER } from '@shellgrade/auth';
import { z } from 'zod';

export interface ExerciseServiceClientSettings {
  /** The Exercise service's base URL (process config: upstreams.exerciseUrl). */
  baseUrl: string;
  /** The whole call (connect, answer, body) is cut after this long (spec: gateway.upstreamTimeoutMs). */
  timeoutMs: number;
}

const productionsBody = z.object({
  session_id: z.number(),
  productions: z.array(
    z.object({
      ep_id: z.number(),
      user_id: z.number(),
      ex_id: z.number(),
      ps_id: z.number(),
      status: z.enum(['received', 'queued', 'grading', 'graded', 'failed']),
      grade: z.number().nullable(),
      created_at: z.string(),
    }),
  ),
});

const SERVICE = 'the exercise service';

export class ExerciseServiceSessionProductions implements SessionProductionsSource {
  constructor(
    private readonly settings: ExerciseServiceClientSettings,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  async productionsOfSession(sessionId: number, onBehalfOf: OnBehalfOf): Promise<SessionProductionRecord[]> {
    const url = new URL(`/api/exercise-productions/by-session/${sessionId}`, this.settings.baseUrl);
    let res: Response;
    let text: string;
    const signal = AbortSignal.timeout(this.settings.timeoutMs);
    try {
      res = await this.fetchFn(url, {
        headers: {
          accept: 'application/json',
          ...(onBehalfOf.accessToken ? { authorization: `Bearer ${onBehalfOf.accessToken}` } : {}),
          // Behind an offloading gateway the Exercise service trusts only the gateway's assertion (still fresh: 30 s).
          ...(onBehalfOf.identityAssertion ? { [IDENTITY_ASSERTION_HEADER]: onBehalfOf.identityAssertion } : {}),
        },
        signal,
      });
      text = await res.text();
    } catch {
      // The timeout's abort, whatever the error object it surfaced as.
      if (signal.aborted) {
        throw new DomainError('upstream-timeout', `${SERVICE} did not send the session's productions within ${this.settings.timeoutMs} ms; try again later`, {
          upstream: 'exercise',
        });
      }
      throw new DomainError('unavailable', `${SERVICE} cannot be reached to read the session's productions; try again later`, { upstream: 'exercise' }, 5);
    }
    if (res.status === 401) throw new DomainError('unauthenticated', `${SERVICE} refused your credentials: ${detailOf(text)}`);
    if (res.status === 403) throw new DomainError('forbidden', `${SERVICE} refused: ${detailOf(text)}`);
    if (!res.ok) {
      throw new DomainError('unavailable', `${SERVICE} answered ${res.status} for the session's productions: ${detailOf(text)}`, {
        upstream: 'exercise',
        upstream_status: res.status,
      }, 5);
    }
    const parsed = productionsBody.safeParse(safeJson(text));
    if (!parsed.success) {
      throw new DomainError('unavailable', `${SERVICE} sent productions in an unexpected shape`, { upstream: 'exercise', issues: parsed.error.issues.slice(0, 3).map((i) => i.message) });
    }
    return parsed.data.productions.map((p) => ({
      productionId: p.ep_id,
      userId: p.user_id,
      exerciseId: p.ex_id,
      statementId: p.ps_id,
      status: p.status,
      grade: p.grade,
      createdAt: new Date(p.created_at),
    }));
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The upstream problem's detail (or its first characters), so the teacher sees why. */
function detailOf(text: string): string {
  const body = safeJson(text) as { detail?: unknown; title?: unknown } | undefined;
  const detail = body && typeof body === 'object' ? (body.detail ?? body.title) : undefined;
  return typeof detail === 'string' ? detail : text.slice(0, 200) || 'no detail';
}
