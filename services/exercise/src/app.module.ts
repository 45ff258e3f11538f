import { Module, type DynamicModule } from '@nestjs/common';
import { AuthApiModule, ProductionApiModule, StatementApiModule } from '@shellgrade/api';
import { AuthModule } from '@shellgrade/auth';
import { ObservabilityModule } from '@shellgrade/http';
import { HEALTH_CHECKS_TOKEN } from '@shellgrade/persistence';
import { answerBudgetMsOf, type ServiceConfig } from '@shellgrade/variant';
import { archiveStore, authConfigOf, cache, database, dispatch, grader, identityOf, loginAdmission, portsModule, submissions } from '@shellgrade/wiring';

/**
 * The "Exercise" grading service of paper 000 §III: receives SPS (and student statements)
 * from the gateway over spec.transport and grades them with the same GradingWorker the
 * monolith uses, in-process or through the broker spec.dispatch names (every replica then
 * publishes the SPS it receives and consumes the work queue).
 */
@Module({})
export class ExerciseModule {
  static forRoot(cfg: ServiceConfig): DynamicModule {
    const { spec } = cfg;
    return {
      module: ExerciseModule,
      imports: [
        portsModule([
          ...database(cfg), //                 statements, productions: PostgreSQL
          ...archiveStore(cfg), //             archives: spec.storage
          ...cache[spec.cache](cfg), //        SPS read path: spec.cache
          ...grader(cfg), //                   sandboxed grader: spec.grader
          ...dispatch[spec.dispatch](cfg), //  submission → grader: spec.dispatch
          ...submissions(cfg), //              the submission use case, its admission: spec.admission
          ...loginAdmission(cfg), //           password checks in flight per process: spec.admission
        ]),
        AuthModule.forRoot(authConfigOf(cfg)),
        AuthApiModule, //                   login, verify, logout: the HTTP side of AuthModule's sessions
        StatementApiModule,
        ProductionApiModule.forRoot({ maxArchiveBytes: spec.http.maxArchiveBytes, answerBudgetMs: answerBudgetMsOf(spec.admission) }),
        ObservabilityModule.forRoot(identityOf(cfg), cfg.spec.http.opsAccess, HEALTH_CHECKS_TOKEN),
      ],
    };
  }
}
