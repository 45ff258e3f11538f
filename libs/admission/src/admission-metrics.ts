/**
 * The admission gates' Prometheus metrics, on prom-client's default registry (every service's
 * /metrics), one series per gate (`gate="submission"`, `gate="login"`): what it holds, its adapted
 * limit, how long its recent work took, and refusals so far.
 */
import client from 'prom-client';
import type { AdmissionSnapshot } from './admission';

export type GateName = 'submission' | 'login';

const gates = new Map<GateName, () => AdmissionSnapshot>();

/** Each observed gate with its snapshot as it is now. */
function forEachGate(record: (gate: GateName, s: AdmissionSnapshot) => void): void {
  for (const [gate, snapshot] of gates) record(gate, snapshot());
}

/** Adds a gate to the metrics (registered once per process; each scrape reads every gate's snapshot). */
export function observeAdmission(gate: GateName, snapshot: () => AdmissionSnapshot): void {
  gates.set(gate, snapshot);
  if (client.register.getSingleMetric('shellgrade_admission_in_flight')) return;
  new client.Gauge({
    name: 'shellgrade_admission_in_flight',
    help: 'Submissions (gate="submission": validated, stored, graded or waiting) or password checks (gate="login") this process holds',
    labelNames: ['gate'],
    collect() {
      forEachGate((gate, s) => this.set({ gate }, s.inside));
    },
  });
  new client.Gauge({
    name: 'shellgrade_admission_limit',
    help: 'The gate\'s concurrency limit as adapted to latency (between 1 and its maxInFlight)',
    labelNames: ['gate'],
    collect() {
      forEachGate((gate, s) => this.set({ gate }, s.limit));
    },
  });
  new client.Gauge({
    name: 'shellgrade_admission_median_latency_seconds',
    help: 'Median seconds the gate\'s recent work took (enter to release, over the gate\'s window: 30 s unless the spec\'s admission.windowS says); NaN before 5 completions',
    labelNames: ['gate'],
    collect() {
      forEachGate((gate, s) => this.set({ gate }, s.medianLatencyS ?? Number.NaN));
    },
  });
  new client.Gauge({
    name: 'shellgrade_admission_window_completions',
    help: 'Completions in the gate\'s window now (0: quiet for a whole window, so the gate starts open)',
    labelNames: ['gate'],
    collect() {
      forEachGate((gate, s) => this.set({ gate }, s.windowCompletions));
    },
  });
  new client.Counter({
    name: 'shellgrade_admission_refused_total',
    help: 'Newcomers refused with 503 + Retry-After since the process started',
    labelNames: ['gate'],
    collect() {
      this.reset();
      forEachGate((gate, s) => this.inc({ gate }, s.refused));
    },
  });
}
