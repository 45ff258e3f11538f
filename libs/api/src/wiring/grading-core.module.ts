import { Global, Module, type DynamicModule, type Provider } from '@nestjs/common';
import {
  ARCHIVE_STORE,
  ARCHIVE_VALIDATOR,
  GRADER,
  GRADING_DISPATCH,
  GradingWorker,
  PRODUCTION_REPOSITORY,
  SUBMISSION_CONTEXT,
  type ArchiveStore,
  type Grader,
  type ProductionRepository,
  type SubmissionContextReader,
} from '@shellgrade/domain';
import { InlineDispatch } from '@shellgrade/dispatch';
import { createGraderFromConfig, validateArchive } from '@shellgrade/grading';
import { tracedGrader } from '@shellgrade/telemetry';
import type { RuntimeConfig } from '@shellgrade/variant';

/**
 * The grading side of a process: the sandboxed grader, the archive validator, the
 * idempotent worker and the dispatch adapter the variant asks for. Extra dispatch
 * adapters (brokers) are passed in by the composition root that knows about them.
 */
@Global()
@Module({})
export class GradingCoreModule {
  static forRoot(cfg: RuntimeConfig, dispatchOverride?: Provider): DynamicModule {
    const dispatch: Provider = dispatchOverride ?? {
      provide: GRADING_DISPATCH,
      inject: [GradingWorker],
      useFactory: (worker: GradingWorker) => {
        if (cfg.SG_DISPATCH !== 'inline' && cfg.SG_DISPATCH !== 'http') {
          throw new Error(`dispatch ${cfg.SG_DISPATCH} needs its broker module in this composition root`);
        }
        return new InlineDispatch(worker);
      },
    };
    return {
      module: GradingCoreModule,
      providers: [
        {
          provide: GRADER,
          useFactory: () => {
            const grader = createGraderFromConfig(cfg);
            return cfg.SG_TRACING ? tracedGrader(grader, cfg.SG_GRADER_EXEC) : grader;
          },
        },
        {
          provide: ARCHIVE_VALIDATOR,
          useValue: { validate: (bytes: Buffer) => validateArchive(bytes, { maxCompressedBytes: cfg.SG_MAX_ARCHIVE_BYTES }).then(() => undefined) },
        },
        {
          provide: GradingWorker,
          inject: [SUBMISSION_CONTEXT, PRODUCTION_REPOSITORY, ARCHIVE_STORE, GRADER],
          useFactory: (ctx: SubmissionContextReader, prods: ProductionRepository, store: ArchiveStore, grader: Grader) =>
            new GradingWorker(ctx, prods, store, grader),
        },
        dispatch,
      ],
      exports: [GRADER, ARCHIVE_VALIDATOR, GradingWorker, GRADING_DISPATCH],
    };
  }
}
