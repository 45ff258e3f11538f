/**
 * The admission gates' Prometheus metrics, on prom-client's default registry (every service's
 * /metrics), one series per gate (`gate="submission"`, `gate="login"`): what it holds, the wait a
 * newcomer would be told, and refusals so far.
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
    name: 'shellgrade_admission_estimated_wait_seconds',
    help: 'Estimated wait of a newcomer (in flight / recent completion rate); NaN before a rate is measured',
    labelNames: ['gate'],
    collect() {
      forEachGate((gate, s) => this.set({ gate }, s.estimatedWaitS ?? Number.NaN));
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
