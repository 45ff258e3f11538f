/**
 * The body of a grading worker process for the broker fault tests: real PostgreSQL and a real
 * GradingWorker around the real sandboxed grader; the broker
 * part is started by `consume`. Prints READY once it consumes (see child-process.ts); on
 * SIGTERM it stops consuming, then closes the pool and exits.
 */
import { GradingWorker, type ProductionRepository } from '@shellgrade/domain';
import { realGrader } from './real-grader';
import { PgProductionRepository, PgSubmissionContextReader, PostgresArchiveStore, createPool } from './real-libs';

export interface Consuming {
  /** Stops consuming and closes the broker connection. */
  close: () => Promise<void>;
}

export function runWorkerProcess(consume: (grading: GradingWorker, productions: ProductionRepository) => Promise<Consuming>): void {
  const main = async () => {
    const pool = createPool({ databaseUrl: String(process.env.DATABASE_URL), size: 10, idleTimeoutMs: 30_000 });
    const productions = new PgProductionRepository(pool);
    const grading = new GradingWorker(
      new PgSubmissionContextReader(pool),
      productions,
      new PostgresArchiveStore(pool),
      realGrader(),
    );
    const consuming = await consume(grading, productions);
    process.stdout.write(`READY pid=${process.pid}\n`);
    process.once('SIGTERM', () => {
      void consuming
        .close()
        .then(() => pool.end())
        .finally(() => process.exit(0));
    });
  };
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
