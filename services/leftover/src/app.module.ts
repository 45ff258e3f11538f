import { Module, type DynamicModule } from '@nestjs/common';
import { AuthApiModule, LeftoverApiModule, SessionReportApiModule } from '@shellgrade/api';
import { AuthModule } from '@shellgrade/auth';
import { ObservabilityModule } from '@shellgrade/http';
import { HEALTH_CHECKS_TOKEN } from '@shellgrade/persistence';
import type { ServiceConfig } from '@shellgrade/variant';
import { authConfigOf, cache, database, identityOf, loginAdmission, portsModule, sessionProductions } from '@shellgrade/wiring';

/** The "Leftover" service of paper 000 §III: everything but grading (auth, users, catalog, sessions). */
@Module({})
export class LeftoverModule {
  static forRoot(cfg: ServiceConfig): DynamicModule {
    return {
      module: LeftoverModule,
      imports: [
        portsModule([
          ...database(cfg), //                users, catalog, sessions: PostgreSQL
          ...cache[cfg.spec.cache](cfg), //   invalidated when exercises change: spec.cache
          ...sessionProductions[cfg.spec.topology](cfg), // session reports' productions: the exercise service (msa)
          ...loginAdmission(cfg), //          password checks in flight per process: spec.admission
        ]),
        AuthModule.forRoot(authConfigOf(cfg)),
        AuthApiModule, //                   login, verify, logout: the HTTP side of AuthModule's sessions
        LeftoverApiModule,
        SessionReportApiModule,
        ObservabilityModule.forRoot(identityOf(cfg), cfg.spec.http.opsAccess, HEALTH_CHECKS_TOKEN),
      ],
    };
  }
}
