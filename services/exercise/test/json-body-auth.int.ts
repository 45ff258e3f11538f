/**
 * The exercise service (msa-1-2's, and behind an offloading gateway, where the login check is the
 * gateway's signed assertion) reads a submission's JSON only after the login check (the suite:
 * libs/wiring/test/support/json-body-auth.ts). The gateway in front parses no body at all: it
 * streams (HTTP) or forwards the raw bytes (gRPC) — libs/gateway.
 */
import { describeJsonBodyAuth } from '@shellgrade/wiring/testing';
import { ExerciseModule } from '../src/app.module';

jest.setTimeout(60_000);

describeJsonBodyAuth('msa-1-2', 'exercise', (cfg) => ExerciseModule.forRoot(cfg));
