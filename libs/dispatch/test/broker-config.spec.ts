import { z } from 'zod';
import { brokerTunables, loadBrokerConfig } from '../src/broker-config';

const schema = z.object({ SG_BROKER_QUEUE: z.string().default('q'), ...brokerTunables });

describe('loadBrokerConfig', () => {
  it('applies the shared defaults', () => {
    expect(loadBrokerConfig(schema, 'Test', {})).toEqual({
      SG_BROKER_QUEUE: 'q',
      SG_BROKER_PREFETCH: 4,
      SG_BROKER_QUEUE_BOUND: 1000,
      SG_BROKER_RETRIES: 3,
      SG_BROKER_RETRY_DELAY_MS: 500,
      SG_BROKER_REPLY_TIMEOUT_MS: 50_000,
      SG_BROKER_PUBLISH_TIMEOUT_MS: 10_000,
      SG_BROKER_RETRY_AFTER_S: 5,
      SG_BROKER_CONSUME: true,
    });
  });

  it('accepts SG_BROKER_MAX_QUEUE for the bound unless SG_BROKER_QUEUE_BOUND is set', () => {
    expect(loadBrokerConfig(schema, 'Test', { SG_BROKER_MAX_QUEUE: '7' }).SG_BROKER_QUEUE_BOUND).toBe(7);
    expect(loadBrokerConfig(schema, 'Test', { SG_BROKER_QUEUE_BOUND: '9', SG_BROKER_MAX_QUEUE: '7' }).SG_BROKER_QUEUE_BOUND).toBe(9);
  });

  it('reads SG_BROKER_CONSUME as true/false/1/0 only', () => {
    expect(loadBrokerConfig(schema, 'Test', { SG_BROKER_CONSUME: '0' }).SG_BROKER_CONSUME).toBe(false);
    expect(() => loadBrokerConfig(schema, 'Test', { SG_BROKER_CONSUME: 'no' })).toThrow(/SG_BROKER_CONSUME/);
  });

  it('names the broker and every bad variable', () => {
    expect(() => loadBrokerConfig(schema, 'Test', { SG_BROKER_PREFETCH: '0', SG_BROKER_RETRIES: '-1' })).toThrow(
      /invalid Test broker configuration:[\s\S]*SG_BROKER_PREFETCH[\s\S]*SG_BROKER_RETRIES/,
    );
  });
});
