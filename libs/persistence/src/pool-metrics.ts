/**
 * The PostgreSQL pool's Prometheus metrics (every service's /metrics): connections open, idle,
 * and queries waiting for a connection. Under overload a request can spend its time here rather
 * than in the event loop or the grader; these say which.
 */
import client from 'prom-client';
import type { Pool } from 'pg';

/** Registers the gauges once per process; they read the pool when scraped. */
export function observePool(pool: Pool): void {
  if (client.register.getSingleMetric('shellgrade_db_pool_waiting')) return;
  const gauge = (name: string, help: string, read: () => number) =>
    new client.Gauge({
      name,
      help,
      collect() {
        this.set(read());
      },
    });
  gauge('shellgrade_db_pool_connections', 'Connections this process has open to PostgreSQL', () => pool.totalCount);
  gauge('shellgrade_db_pool_idle', 'Open connections not serving a query', () => pool.idleCount);
  gauge('shellgrade_db_pool_waiting', 'Queries waiting for a free connection (pool at database.pool)', () => pool.waitingCount);
}
