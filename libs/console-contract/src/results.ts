/**
 * What the console lists (GET /ops/presets, GET /ops/runs): written by the server (libs/http
 * ops-results.ts), read by the web app. One declaration for both sides.
 */

/** One preset as the console lists it (what the wiring reads from infra/variants). */
export interface PresetSummary {
  name: string;
  description: string;
  topology?: string;
  dispatch?: string;
  transport?: string;
  gateway?: string;
  /** Set instead of the facts when the preset does not load. */
  error?: string;
}

/** One benchmark run of the results folder. */
export interface RunSummary {
  id: string;
  variant: string | null;
  profile: string | null;
  startedAt: string | null;
  endedAt: string | null;
  runsAsked: number | null;
  validRuns: number | null;
  valid: boolean | null;
  /** Report files, relative to the run folder (e.g. report/report.html, k6-dashboard-run-1.html). */
  files: string[];
}
