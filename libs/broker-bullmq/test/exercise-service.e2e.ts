// e2e-variants: none
/**
 * The BullMQ variant end to end: two exercise-service replicas (built dist) each receive SPS
 * over HTTP and run a worker; the real sandboxed grader grades the paper's sample answer.
 * sync → 201 with the grade; async → 202 {ep_id, status}, then GET shows it graded.
 * Needs `npm run build` and `bash infra/bin/servers up postgres redis`.
 */
import { Queue } from 'bullmq';
// The e2e checks are shared with libs/broker-rabbitmq in libs/dispatch/test.
/* eslint-disable-next-line @nx/enforce-module-boundaries */
import { describeExerciseServiceOver } from '../../dispatch/test/support/exercise-service-e2e';
import { BULLMQ_PREFIX } from '../src';

jest.setTimeout(240_000);

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:56379';

describeExerciseServiceOver({
  dispatch: 'bullmq',
  name: 'BullMQ',
  queuePrefix: 'sg-e2e-',
  ports: { pair: [3393, 3394], bounded: 3396 },
  deleteQueue: async (queue) => {
    const q = new Queue(queue, { connection: { url: REDIS_URL }, prefix: BULLMQ_PREFIX });
    await q.obliterate({ force: true }).catch(() => undefined);
    await q.close();
  },
});
