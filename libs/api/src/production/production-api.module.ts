import { Module, type DynamicModule } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import {
  ARCHIVE_STORE,
  ARCHIVE_VALIDATOR,
  GRADING_DISPATCH,
  PRODUCTION_REPOSITORY,
  SUBMISSION_ADMISSION,
  SUBMISSION_CONTEXT,
  SubmissionService,
  type ArchiveStore,
  type ArchiveValidator,
  type GradingDispatch,
  type ProductionRepository,
  type SubmissionAdmission,
  type SubmissionContextReader,
} from '@shellgrade/domain';
import { ProductionController } from './production.controller';
import { ExerciseTrialController } from './exercise-trial.controller';
import { PRODUCTION_LIMITS, type ProductionLimits } from './production-limits';

/**
 * SPS endpoints. Needs the ports (context, validator, productions, archives, dispatch; admission if bound)
 * from global modules chosen by the composition root.
 */
@Module({})
export class ProductionApiModule {
  static forRoot(limits: ProductionLimits): DynamicModule {
    return {
      module: ProductionApiModule,
      // A multipart file over the archive limit is cut while streaming (413), never buffered whole.
      imports: [MulterModule.register({ limits: { fileSize: limits.maxArchiveBytes, files: 1, fields: 20 } })],
      controllers: [ProductionController, ExerciseTrialController],
      providers: [
        { provide: PRODUCTION_LIMITS, useValue: limits },
        {
          provide: SubmissionService,
          // Admission is optional: a root that binds none admits every submission.
          inject: [SUBMISSION_CONTEXT, ARCHIVE_VALIDATOR, PRODUCTION_REPOSITORY, ARCHIVE_STORE, GRADING_DISPATCH, { token: SUBMISSION_ADMISSION, optional: true }],
          useFactory: (
            context: SubmissionContextReader,
            validator: ArchiveValidator,
            productions: ProductionRepository,
            archives: ArchiveStore,
            dispatch: GradingDispatch,
            admission: SubmissionAdmission | undefined,
          ) => new SubmissionService(context, validator, productions, archives, dispatch, undefined, admission),
        },
      ],
    };
  }
}
