import { Module, type DynamicModule } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { ProductionController } from './production.controller';
import { ExerciseTrial } from '@shellgrade/application';
import { ExerciseTrialController } from '../exercise-trial.controller';
import { PRODUCTION_LIMITS, type ProductionLimits } from './production-limits';

/**
 * SPS endpoints. Needs SubmissionService, built by the composition root over the ports it chose
 * (libs/wiring submissions()), and the archive validator, from its global ports module.
 */
@Module({})
export class ProductionApiModule {
  static forRoot(limits: ProductionLimits): DynamicModule {
    return {
      module: ProductionApiModule,
      // A multipart file over the archive limit is cut while streaming (413), never buffered whole.
      imports: [MulterModule.register({ limits: { fileSize: limits.maxArchiveBytes, files: 1, fields: 20 } })],
      controllers: [ProductionController, ExerciseTrialController],
      providers: [{ provide: PRODUCTION_LIMITS, useValue: limits }, ExerciseTrial],
    };
  }
}
