/**
 * The grading side of a process: the sandboxed grader (traced when tracing is on), the archive
 * validator and the idempotent GradingWorker every dispatch hands submissions to.
 */
import type { Provider } from '@nestjs/common';
import {
  ARCHIVE_STORE,
  ARCHIVE_VALIDATOR,
  GRADER,
  GradingWorker,
  PRODUCTION_REPOSITORY,
  SUBMISSION_CONTEXT,
  type ArchiveStore,
  type Grader,
  type ProductionRepository,
  type SubmissionContextReader,
} from '@shellgrade/domain';
import { SandboxGrader, validateArchive, type GraderOptions } from '@shellgrade/grading';
import { tracedGrader } from '@shellgrade/telemetry';
import type { ServiceConfig } from '@shellgrade/variant';

/** The grader options a spec asks for, on this machine's interpreter and sandbox folder. */
export function graderOptionsOf(cfg: ServiceConfig): GraderOptions {
  const { grader, http } = cfg.spec;
  return {
    python: cfg.connections.SG_PYTHON,
    sandboxRoot: cfg.connections.SG_SANDBOX_ROOT,
    timeoutMs: grader.timeoutMs,
    exec: grader.exec,
    isolation: grader.isolation,
    niceness: grader.nice,
    archiveLimits: { maxCompressedBytes: http.maxArchiveBytes },
  };
}

export function gradingProviders(cfg: ServiceConfig): Provider[] {
  const { spec } = cfg;
  return [
    {
      provide: GRADER,
      useFactory: () => {
        const grader = new SandboxGrader(graderOptionsOf(cfg));
        return spec.tracing.enabled ? tracedGrader(grader, spec.grader.exec) : grader;
      },
    },
    {
      provide: ARCHIVE_VALIDATOR,
      useValue: { validate: (bytes: Buffer) => validateArchive(bytes, { maxCompressedBytes: spec.http.maxArchiveBytes }).then(() => undefined) },
    },
    {
      provide: GradingWorker,
      inject: [SUBMISSION_CONTEXT, PRODUCTION_REPOSITORY, ARCHIVE_STORE, GRADER],
      useFactory: (ctx: SubmissionContextReader, prods: ProductionRepository, store: ArchiveStore, grader: Grader) =>
        new GradingWorker(ctx, prods, store, grader),
    },
  ];
}
