/**
 * The admission gate's Prometheus metrics, on prom-client's default registry (every service's
 * /metrics): submissions in flight, the wait a newcomer would be told, and refusals so far.
 */
import client from 'prom-client';
import type { AdmissionSnapshot } from './admission';

/** Registers the metrics once per process; they read the gate's snapshot when scraped. */
export function observeAdmission(snapshot: () => AdmissionSnapshot): void {
  if (client.register.getSingleMetric('shellgrade_admission_in_flight')) return;
  new client.Gauge({
    name: 'shellgrade_admission_in_flight',
    help: 'Submissions this process holds (validated, stored, graded or waiting for a grader or a reply)',
    collect() {
      this.set(snapshot().inside);
    },
  });
  new client.Gauge({
    name: 'shellgrade_admission_estimated_wait_seconds',
    help: 'Estimated wait of a submission arriving now (in flight / recent completion rate); NaN before a rate is measured',
    collect() {
      this.set(snapshot().estimatedWaitS ?? Number.NaN);
    },
  });
  new client.Counter({
    name: 'shellgrade_admission_refused_total',
    help: 'Submissions refused with 503 + Retry-After since the process started',
    collect() {
      this.reset();
      this.inc(snapshot().refused);
    },
  });
}
