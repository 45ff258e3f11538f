import { Module, type DynamicModule } from '@nestjs/common';
import { GradingCoreModule, ProductionApiModule, StatementApiModule } from '@shellgrade/api';
import { AuthModule } from '@shellgrade/auth';
import { BullMqDispatchModule } from '@shellgrade/broker-bullmq';
import { RabbitMqDispatchModule } from '@shellgrade/broker-rabbitmq';
import { CacheModule } from '@shellgrade/cache';
import { ObservabilityModule } from '@shellgrade/http';
import { HEALTH_CHECKS_TOKEN, PersistenceModule } from '@shellgrade/persistence';
import { StorageModule } from '@shellgrade/storage';
import type { RuntimeConfig } from '@shellgrade/variant';

/**
 * The "Exercise" grading service of paper 000 §III: receives SPS (and student statements)
 * through the gateway and grades them with the same GradingWorker the monolith uses.
 */
@Module({})
export class ExerciseModule {
  static forRoot(cfg: RuntimeConfig): DynamicModule {
    // Broker variants: this replica publishes the SPS it receives and consumes the work queue.
    const broker =
      cfg.SG_DISPATCH === 'rabbitmq' ? RabbitMqDispatchModule : cfg.SG_DISPATCH === 'bullmq' ? BullMqDispatchModule : undefined;
    return {
      module: ExerciseModule,
      imports: [
        PersistenceModule.forRoot(cfg),
        CacheModule.forRoot(cfg),
        StorageModule.forRoot(cfg),
        GradingCoreModule.forRoot(cfg, broker?.dispatchProvider()),
        ...(broker ? [broker.forRoot(cfg)] : []),
        AuthModule.forRoot(cfg),
        StatementApiModule,
        ProductionApiModule.forRoot({ maxArchiveBytes: cfg.SG_MAX_ARCHIVE_BYTES }),
        ObservabilityModule.forRoot({ role: cfg.SG_ROLE, replica: cfg.SG_REPLICA, variant: cfg.SG_VARIANT }, HEALTH_CHECKS_TOKEN),
      ],
    };
  }
}
