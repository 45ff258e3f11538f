import { Module, type DynamicModule } from '@nestjs/common';
import { AuthApiModule, LeftoverApiModule, ProductionApiModule, SessionReportApiModule, StatementApiModule } from '@shellgrade/api';
import { AuthModule } from '@shellgrade/auth';
import { ObservabilityModule } from '@shellgrade/http';
import { HEALTH_CHECKS_TOKEN } from '@shellgrade/persistence';
import { answerBudgetMsOf, type ServiceConfig } from '@shellgrade/variant';
import { archiveStore, authConfigOf, cache, database, dispatch, grader, identityOf, loginAdmission, portsModule, sessionProductions, submissions } from '@shellgrade/wiring';

/** The monolith (paper 000 §II): every module in one process, grading in-process. */
@Module({})
export class MonolithModule {
  static forRoot(cfg: ServiceConfig): DynamicModule {
    const { spec } = cfg;
    return {
      module: MonolithModule,
      imports: [
        portsModule([
          ...database(cfg), //                 users, catalog, productions: PostgreSQL
          ...archiveStore(cfg), //             archives: spec.storage
          ...cache[spec.cache](cfg), //        SPS read path: spec.cache
          ...grader(cfg), //                   sandboxed grader: spec.grader
          ...dispatch[spec.dispatch](cfg), //  submission → grader: spec.dispatch (inline)
          ...submissions(cfg), //              the submission use case, its admission: spec.admission
          ...loginAdmission(cfg), //           password checks in flight per process: spec.admission
          ...sessionProductions[spec.topology](cfg), // session reports' productions: in-process
        ]),
        AuthModule.forRoot(authConfigOf(cfg)),
        AuthApiModule, //                   login, verify, logout: the HTTP side of AuthModule's sessions
        LeftoverApiModule,
        SessionReportApiModule,
        StatementApiModule,
        ProductionApiModule.forRoot({ maxArchiveBytes: spec.http.maxArchiveBytes, answerBudgetMs: answerBudgetMsOf(spec.admission) }),
        ObservabilityModule.forRoot(identityOf(cfg), cfg.spec.http.opsAccess, HEALTH_CHECKS_TOKEN),
      ],
    };
  }
}
