import { Module, type DynamicModule } from '@nestjs/common';
import { LeftoverApiModule } from '@shellgrade/api';
import { AuthModule } from '@shellgrade/auth';
import { CacheModule } from '@shellgrade/cache';
import { ObservabilityModule } from '@shellgrade/http';
import { HEALTH_CHECKS_TOKEN, PersistenceModule } from '@shellgrade/persistence';
import type { RuntimeConfig } from '@shellgrade/variant';

/** The "Leftover" service of paper 000 §III: everything but grading (auth, users, catalog, sessions). */
@Module({})
export class LeftoverModule {
  static forRoot(cfg: RuntimeConfig): DynamicModule {
    return {
      module: LeftoverModule,
      imports: [
        PersistenceModule.forRoot(cfg),
        CacheModule.forRoot(cfg),
        AuthModule.forRoot(cfg),
        LeftoverApiModule,
        ObservabilityModule.forRoot({ role: cfg.SG_ROLE, replica: cfg.SG_REPLICA, variant: cfg.SG_VARIANT }, HEALTH_CHECKS_TOKEN),
      ],
    };
  }
}
