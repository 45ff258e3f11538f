// e2e-variants: none
/**
 * The RabbitMQ variant end to end: two exercise-service replicas (built dist) each receive
 * SPS over HTTP and consume the work queue; the real sandboxed grader grades the paper's
 * sample answer. sync → 201 with the grade; async → 202 {ep_id, status}, then GET shows it graded.
 * Needs `npm run build` and `bash infra/bin/servers up postgres rabbitmq`.
 */
// The e2e checks are shared with libs/broker-bullmq in libs/dispatch/test.
/* eslint-disable-next-line @nx/enforce-module-boundaries */
import { describeExerciseServiceOver } from '../../dispatch/test/support/exercise-service-e2e';
import { deleteRabbitTopologies } from './support/rabbitmq-cleanup';

jest.setTimeout(240_000);

const AMQP_URL = process.env.AMQP_URL ?? 'amqp://shellgrade:shellgrade@127.0.0.1:55672';

describeExerciseServiceOver({
  dispatch: 'rabbitmq',
  name: 'RabbitMQ',
  queuePrefix: 'sg.e2e.',
  ports: { pair: [3391, 3392], bounded: 3395 },
  deleteQueue: (queue) => deleteRabbitTopologies(AMQP_URL, [queue]),
});
