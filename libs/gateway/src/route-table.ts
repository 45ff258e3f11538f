/**
 * The gateway's routing table (paper 000 §III): submissions (SPS) and student statements
 * go to the Exercise service, everything else under /api to the Leftover service.
 * Pure data + a pure classifier so it can be unit-tested and documented at /docs.
 */
import { pathOf } from '@shellgrade/http';

export type UpstreamName = 'exercise' | 'leftover';

export interface RouteRule {
  /** First path segment after /api, matched case-insensitively as Express does. */
  readonly segment: RegExp;
  readonly upstream: UpstreamName;
  readonly description: string;
  /** OpenAPI paths that document the rule at /docs. */
  readonly documentedPaths: readonly string[];
}

/** First match wins; the catch-all leftover rule comes last. */
export const ROUTE_TABLE: readonly RouteRule[] = [
  {
    segment: /^exercise-productions?$/i,
    upstream: 'exercise',
    description: 'student production submission (SPS) and its feedback',
    documentedPaths: ['/api/exercise-production', '/api/exercise-production/{id}'],
  },
  {
    segment: /^exercise-trials?$/i,
    upstream: 'exercise',
    description: "an exercise author's trial of its grader on a sample archive (where the grader is)",
    documentedPaths: ['/api/exercise-trial'],
  },
  {
    segment: /^student-statements?$/i,
    upstream: 'exercise',
    description: 'per-student exercise statements',
    documentedPaths: ['/api/student-statement', '/api/student-statement/{id}'],
  },
  {
    segment: /.*/,
    upstream: 'leftover',
    description: 'everything else under /api (users, auth, exercises, sequences, sessions)',
    documentedPaths: ['/api/{path}'],
  },
];

export type RouteClass =
  | { kind: 'proxy'; upstream: UpstreamName }
  | { kind: 'local' };

const API_PREFIX = /^\/api(?:\/|$)/i;

/** Which upstream serves this request target; `local` means the gateway answers itself. */
export function classifyPath(url: string): RouteClass {
  const path = pathOf(url);
  if (!API_PREFIX.test(path)) return { kind: 'local' };
  const segment = path.slice('/api/'.length).split('/', 1)[0] ?? '';
  const rule = ROUTE_TABLE.find((r) => r.segment.test(segment));
  return { kind: 'proxy', upstream: rule ? rule.upstream : 'leftover' };
}
