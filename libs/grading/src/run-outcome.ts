/** How one grader process ended, whichever way it was run (async, blocking, warm pool). */
export interface RunOutcome {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderrTail: string;
  /** stdout went beyond the cap and was cut. */
  outputOverflow: boolean;
  durationMs: number;
  /** The process could not be started at all (ENOENT...). */
  spawnError?: string;
}
