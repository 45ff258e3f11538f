/**
 * Broker tunables of the RabbitMQ dispatch: the shared SG_BROKER_* ones and the work queue
 * name (the dead-letter exchange/queue are derived from it). Prefetch = unacked messages per
 * consumer; the bound is the queue's x-max-length; the retries its x-delivery-limit.
 */
import { z } from 'zod';
import { brokerTunables, loadBrokerConfig } from '@shellgrade/dispatch';

export const rabbitMqConfigSchema = z.object({
  /** Work queue name; the dead-letter exchange/queue are derived from it. */
  SG_BROKER_QUEUE: z.string().min(1).default('sg.grading'),
  ...brokerTunables,
});

export type RabbitMqConfig = z.infer<typeof rabbitMqConfigSchema>;

export function loadRabbitMqConfig(env: NodeJS.ProcessEnv = process.env): RabbitMqConfig {
  return loadBrokerConfig(rabbitMqConfigSchema, 'RabbitMQ', env);
}
