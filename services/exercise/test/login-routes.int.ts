/** The exercise service's own composition root serves login, verify and logout (the suite: libs/wiring/test/support/login-routes.ts). */
import { describeLoginRoutes } from '@shellgrade/wiring/testing';
import { ExerciseModule } from '../src/app.module';

describeLoginRoutes('exercise', (cfg) => ExerciseModule.forRoot(cfg));
