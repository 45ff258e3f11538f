/** Deletes test queues (work, dead-letter) and dead-letter exchanges from the shared broker. */
import amqp from 'amqp-connection-manager';
import type { Channel } from 'amqplib';

export async function deleteRabbitTopologies(url: string, queues: string[]): Promise<void> {
  const admin = amqp.connect([url]);
  const ch = admin.createChannel({
    confirm: false,
    setup: async (c: Channel) => {
      for (const q of queues) {
        await c.deleteQueue(q);
        await c.deleteQueue(`${q}.dead`);
        await c.deleteExchange(`${q}.dlx`);
      }
    },
  });
  await ch.waitForConnect().catch(() => undefined);
  await admin.close();
}
