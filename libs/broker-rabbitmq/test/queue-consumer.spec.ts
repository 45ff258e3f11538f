import type { ConsumeMessage } from 'amqplib';
import { deliveryCountOf } from '../src/queue-consumer';

const msg = (headers: Record<string, unknown> | undefined) => ({ properties: { headers } }) as unknown as ConsumeMessage;

describe('deliveryCountOf', () => {
  it('reads the quorum-queue x-delivery-count header, 0 when absent or bad', () => {
    expect(deliveryCountOf(msg(undefined))).toBe(0);
    expect(deliveryCountOf(msg({ 'x-delivery-count': 2 }))).toBe(2);
    expect(deliveryCountOf(msg({ 'x-delivery-count': 'x' }))).toBe(0);
  });
});
