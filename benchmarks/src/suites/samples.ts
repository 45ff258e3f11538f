// What k6 logs per request and per iteration start with logRequests on (k6/lib/scenario-r.js):
// the raw material of every suite table and chart.

/** One request: start (epoch ms), client response time, type, outcome, KO cause, step of its iteration. */
export interface RequestSample {
  t: number;
  ms: number;
  type: string;
  outcome: 'ok' | 'ko';
  cause: string | null;
  step: number | null;
}

/** One iteration (user) started at `t` in `step`: N of a step is 10 × its iterations. */
export interface IterationSample {
  t: number;
  step: number | null;
}

/** Requests of scenario R per iteration (N = 10 × users, paper 000 §IV-C). */
export const REQUESTS_PER_ITERATION = 10;
