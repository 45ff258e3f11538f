/** The monolith's own composition root reads a submission's JSON only after the login check (the suite: libs/wiring/test/support/json-body-auth.ts). */
import { describeJsonBodyAuth } from '@shellgrade/wiring/testing';
import { MonolithModule } from '../src/app.module';

// The monolith grades in the real sandbox before it answers: Jest's 5 s default would fail on a busy machine.
jest.setTimeout(60_000);

describeJsonBodyAuth('naked-mon', 'monolith', (cfg) => MonolithModule.forRoot(cfg));
