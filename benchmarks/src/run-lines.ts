import type { RunLine, RunRecord } from './types';

/** The line aggregated.json keeps per run (hold stage): valid or not, and why. */
export function runLineOf(r: RunRecord): RunLine {
  const hold = r.paper.stages?.hold ?? r.paper;
  return {
    run: r.run,
    valid: r.valid,
    reasons: r.reasons,
    efr_paper: hold.efr_paper,
    ko_rate: hold.ko_rate,
    crashes: r.crashes.map((c) => `${c.process} at ${c.at}`),
    audit: r.audit?.summary ?? null,
    dashboard: r.dashboard,
  };
}
