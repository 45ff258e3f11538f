/**
 * Broker settings for tests, with the spec's defaults (libs/variant's broker section): a worker
 * child process receives them as one JSON value, like a service receives its spec.
 */
// Tests take the servers' addresses and the spec's defaults from the spec library, as the services do.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { brokerSchema } from '@shellgrade/variant';
import type { z } from 'zod';

export const TEST_BROKER_ENV = 'SG_TEST_BROKER';

export type TestBrokerSettings = z.output<typeof brokerSchema> & { queue: string };

export function testBrokerSettings(overrides: z.input<typeof brokerSchema> & { queue: string }): TestBrokerSettings {
  return brokerSchema.parse(overrides) as TestBrokerSettings;
}

/** The env entry a worker child reads back with `brokerSettingsFromEnv`. */
export function brokerSettingsEnv(overrides: z.input<typeof brokerSchema> & { queue: string }): Record<string, string> {
  return { [TEST_BROKER_ENV]: JSON.stringify(testBrokerSettings(overrides)) };
}

export function brokerSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): TestBrokerSettings {
  const raw = env[TEST_BROKER_ENV];
  if (!raw) throw new Error(`${TEST_BROKER_ENV} is not set`);
  return testBrokerSettings(JSON.parse(raw) as TestBrokerSettings);
}
