/**
 * The body of a grading worker process for the broker fault tests: real PostgreSQL and a real
 * GradingWorker around the real sandboxed grader; the broker
 * part is started by `consume`. Prints READY once it consumes (see child-process.ts); on
 * SIGTERM it stops consuming, then closes the pool and exits.
 */
import { GradingWorker, type ArchiveStore, type Grader, type ProductionRepository, type SubmissionContextReader } from '@shellgrade/domain';
import { realGrader } from './real-grader';
import { PgProductionRepository, PgSubmissionContextReader, PostgresArchiveStore, createPool } from './real-libs';

export interface Consuming {
  /** Stops consuming and closes the broker connection. */
  close: () => Promise<void>;
}

/** The ports GradingWorker is built from, for consumers that split its work (dispatch pipeline's filters). */
export interface WorkerPorts {
  context: SubmissionContextReader;
  archives: ArchiveStore;
  grader: Grader;
}

export function runWorkerProcess(consume: (grading: GradingWorker, productions: ProductionRepository, ports: WorkerPorts) => Promise<Consuming>): void {
  const main = async () => {
    const pool = createPool({ databaseUrl: String(process.env.DATABASE_URL), size: 10, idleTimeoutMs: 30_000 });
    const productions = new PgProductionRepository(pool);
    const ports: WorkerPorts = { context: new PgSubmissionContextReader(pool), archives: new PostgresArchiveStore(pool), grader: realGrader() };
    const grading = new GradingWorker(ports.context, productions, ports.archives, ports.grader);
    const consuming = await consume(grading, productions, ports);
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
