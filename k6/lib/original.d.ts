// Types of the pure k6 module original.js, for the runner's tests (benchmarks/test/original-client.spec.ts).
export interface OriginalRequest {
  type: string;
  method: string;
  path: string;
  json: boolean;
  expected: number[];
}
export const GATLING_OK_STATUSES: number[];
export const GATLING_LOGGED_OUT_STATUSES: number[];
export const ORIGINAL_STEP: { quietS: number; rampS: number; holdS: number; pauseS: number; timeoutS: number; spsP95Ms: number };
export const ORIGINAL_REQUESTS: OriginalRequest[];
export function callHeaders(req: OriginalRequest, origin: string, traceparent: string): Record<string, string>;
export function preflightHeaders(req: OriginalRequest, origin: string): Record<string, string>;
export function loginExpected(status: number, body: string | null): number[];
