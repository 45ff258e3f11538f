/**
 * What the console's live page of a launched run shows (GET /ops/launches/<id>/events): written
 * by the server (libs/http ops-launch-progress.ts) from what the harness itself writes, read by
 * the web app. One declaration for both sides.
 */

export interface StepProgress {
  step: number;
  ok: number;
  ko: number;
  /** KO per cause (the client's error code or status). */
  koCauses: Record<string, number>;
  p95Ms: number | null;
  /** OK SPS per second between the step's first and last request. */
  throughput: number | null;
}

export interface RunProgress {
  run: number;
  steps: StepProgress[];
  /** null until run-N.json is written. */
  valid: boolean | null;
  reasons: string[];
}

export interface LaunchProgress {
  stage: string;
  /** The last few progress lines of the harness. */
  lines: string[];
  runs: RunProgress[];
  /** From aggregated.json once the test ended. */
  verdict: { valid: boolean; validRuns: number; runsAsked: number } | null;
}
