/** The leftover service's own composition root serves login, verify and logout (the suite: libs/wiring/test/support/login-routes.ts). */
import { describeLoginRoutes } from '@shellgrade/wiring/testing';
import { LeftoverModule } from '../src/app.module';

describeLoginRoutes('leftover', (cfg) => LeftoverModule.forRoot(cfg));
