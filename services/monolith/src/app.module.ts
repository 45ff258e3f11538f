import { Module, type DynamicModule } from '@nestjs/common';
import { GradingCoreModule, LeftoverApiModule, ProductionApiModule, StatementApiModule } from '@shellgrade/api';
import { AuthModule } from '@shellgrade/auth';
import { CacheModule } from '@shellgrade/cache';
import { ObservabilityModule } from '@shellgrade/http';
import { HEALTH_CHECKS_TOKEN, PersistenceModule } from '@shellgrade/persistence';
import { StorageModule } from '@shellgrade/storage';
import type { RuntimeConfig } from '@shellgrade/variant';

/** The monolith (paper 000 §II): every module in one process, grading inline. */
@Module({})
export class MonolithModule {
  static forRoot(cfg: RuntimeConfig): DynamicModule {
    return {
      module: MonolithModule,
      imports: [
        PersistenceModule.forRoot(cfg),
        CacheModule.forRoot(cfg),
        StorageModule.forRoot(cfg),
        GradingCoreModule.forRoot(cfg),
        AuthModule.forRoot(cfg),
        LeftoverApiModule,
        StatementApiModule,
        ProductionApiModule.forRoot({ maxArchiveBytes: cfg.SG_MAX_ARCHIVE_BYTES }),
        ObservabilityModule.forRoot({ role: cfg.SG_ROLE, replica: cfg.SG_REPLICA, variant: cfg.SG_VARIANT }, HEALTH_CHECKS_TOKEN),
      ],
    };
  }
}
