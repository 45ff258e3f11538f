/**
 * gateway.engine haproxy: what HAProxy needs to stand in for the Node gateway, taken from the
 * same sources the Node gateway uses, so the two cannot drift apart:
 * - the route table (libs/gateway route-table.ts) as one path ACL for the exercise service;
 * - the CORS preflight answers as the cors package gives them for spec.http.corsOrigins;
 * - problem+json bodies for the errors HAProxy makes itself, worded as the Node gateway words them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from 'cors';
import { classifyUpstreamError, ROUTE_TABLE, UPSTREAM_TIMEOUT_CODE } from '@shellgrade/gateway';
import { corsOptions, problem, PROBLEM_CONTENT_TYPE } from '@shellgrade/http';

export interface HeaderLine {
  name: string;
  value: string;
}

/** One `http-request return` of a preflight: for requests whose Origin is `origin`, or for any other. */
export interface PreflightAnswer {
  origin?: string;
  headers: HeaderLine[];
}

/** One `http-error`: the status HAProxy made, the problem+json body the client gets instead. */
export interface ProblemAnswer {
  status: number;
  contentType: string;
  /** HAProxy single-quoted string: no `'` inside (checked). */
  body: string;
  headers: HeaderLine[];
}

export interface GatewayRouting {
  /** gateway.upstreamTimeoutMs: how long a routed service may take to answer (504 after it), as in the Node gateway. */
  timeoutMs: number;
  /** path_reg (case-insensitive) of the requests the route table sends to the exercise service. */
  exercisePath: string;
  preflights: PreflightAnswer[];
  /** Errors HAProxy answers on its own (malformed or slow requests), before any route is chosen. */
  frontendProblems: ProblemAnswer[];
  /** Per routed service: its replicas down, cut or too slow. */
  serviceProblems: Record<'leftover' | 'exercise', ProblemAnswer[]>;
}

export function gatewayRouting(corsOrigins: string, upstreamTimeoutMs: number): GatewayRouting {
  return {
    timeoutMs: upstreamTimeoutMs,
    exercisePath: exercisePathRegex(),
    preflights: preflightAnswers(corsOrigins),
    frontendProblems: [
      problemAnswer(400, 'the request could not be read as HTTP'),
      problemAnswer(408, 'the request did not arrive in time'),
      problemAnswer(500, 'the gateway failed to route this request'),
    ],
    serviceProblems: { leftover: serviceProblems('leftover', upstreamTimeoutMs), exercise: serviceProblems('exercise', upstreamTimeoutMs) },
  };
}

/** `^/api/(?:exercise-productions?|…)(?:/|$)`: every rule before the catch-all that names the exercise service. */
function exercisePathRegex(): string {
  const segments = ROUTE_TABLE.filter((rule) => rule.upstream === 'exercise').map((rule) => {
    if (!rule.segment.flags.includes('i')) throw new Error(`route ${rule.segment} is not case-insensitive: HAProxy matches with -i`);
    return rule.segment.source.replace(/^\^/, '').replace(/\$$/, '');
  });
  if (ROUTE_TABLE.at(-1)?.upstream !== 'leftover') throw new Error('the route table must end with the leftover catch-all: HAProxy defaults to it');
  return `^/api/(?:${segments.join('|')})(?:/|$)`;
}

/**
 * The cors package's own answers, read off it once per origin case: each listed origin gets
 * its own (credentials, the origin echoed), every other origin the rest; with `*` one for all.
 */
function preflightAnswers(corsOrigins: string): PreflightAnswer[] {
  const options = corsOptions(corsOrigins);
  const listed = Array.isArray(options.origin) ? (options.origin as string[]) : [];
  return [...listed.map((origin) => ({ origin, headers: corsPreflight(options, origin) })), { headers: corsPreflight(options, undefined) }];
}

/** Runs the cors middleware on a preflight from `origin` and keeps the headers it set. */
function corsPreflight(options: ReturnType<typeof corsOptions>, origin: string | undefined): HeaderLine[] {
  const headers = new Map<string, HeaderLine>();
  const req = { method: 'OPTIONS', headers: { 'access-control-request-method': 'POST', ...(origin ? { origin } : {}) } };
  const res = {
    statusCode: 200,
    getHeader: (name: string) => headers.get(name.toLowerCase())?.value,
    setHeader: (name: string, value: unknown) => void headers.set(name.toLowerCase(), { name, value: String(value) }),
    end: () => undefined,
  };
  let passedOn = false;
  cors(options as cors.CorsOptions)(req as unknown as IncomingMessage, res as unknown as ServerResponse, () => (passedOn = true));
  if (passedOn || res.statusCode !== 204) throw new Error(`the cors package did not answer a preflight from ${origin ?? 'no origin'} itself`);
  headers.delete('content-length');
  return [...headers.values()];
}

function serviceProblems(service: 'leftover' | 'exercise', timeoutMs: number): ProblemAnswer[] {
  const failure = (code: string) => classifyUpstreamError(Object.assign(new Error(code), { code }), service, timeoutMs);
  return [
    problemAnswer(502, failure('ECONNRESET').detail),
    // HAProxy's 503: no replica of the service is up (the Node gateway's "refused").
    problemAnswer(503, failure('ECONNREFUSED').detail, [{ name: 'Retry-After', value: '1' }]),
    problemAnswer(504, failure(UPSTREAM_TIMEOUT_CODE).detail),
  ];
}

/** A problem+json answer HAProxy gives itself, as the services word theirs (problem()). */
export function problemAnswer(status: number, detail: string, headers: HeaderLine[] = []): ProblemAnswer {
  const body = JSON.stringify(problem(status, detail));
  if (body.includes("'")) throw new Error(`problem ${status} holds a quote HAProxy's single-quoted string cannot: ${body}`);
  return { status, contentType: PROBLEM_CONTENT_TYPE, body, headers };
}
