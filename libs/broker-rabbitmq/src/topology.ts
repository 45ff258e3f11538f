/**
 * The queues and exchanges the RabbitMQ dispatch declares (idempotently, on every
 * (re)connection of every process):
 *
 *   default exchange ──> <queue>          quorum, durable, x-max-length + reject-publish (the bound),
 *                                          x-delivery-limit (bounded retries, counted by the broker even
 *                                          when a consumer dies with the message unacked)
 *   <queue>.dlx (direct) ──> <queue>.dead  where exhausted messages land (at-least-once dead-lettering)
 */
import type { Channel } from 'amqplib';

export interface Topology {
  work: string;
  deadLetterExchange: string;
  deadLetter: string;
}

export function topologyOf(queue: string): Topology {
  return { work: queue, deadLetterExchange: `${queue}.dlx`, deadLetter: `${queue}.dead` };
}

export interface TopologyLimits {
  maxLength: number;
  deliveryLimit: number;
}

export async function assertTopology(channel: Channel, t: Topology, limits: TopologyLimits): Promise<void> {
  await channel.assertExchange(t.deadLetterExchange, 'direct', { durable: true });
  await channel.assertQueue(t.deadLetter, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  await channel.bindQueue(t.deadLetter, t.deadLetterExchange, t.work);
  await channel.assertQueue(t.work, {
    durable: true,
    arguments: {
      'x-queue-type': 'quorum',
      'x-max-length': limits.maxLength,
      'x-overflow': 'reject-publish',
      'x-delivery-limit': limits.deliveryLimit,
      'x-dead-letter-exchange': t.deadLetterExchange,
      'x-dead-letter-routing-key': t.work,
      // Needs reject-publish; the broker keeps a dead-lettered message until the DLQ confirmed it.
      'x-dead-letter-strategy': 'at-least-once',
    },
  });
}
