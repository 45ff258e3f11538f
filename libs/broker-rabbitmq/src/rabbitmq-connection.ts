/**
 * One AMQP connection per process, re-established by amqp-connection-manager after a
 * broker restart; every channel re-runs its setup (topology, consumers) on reconnection.
 */
import amqp, { type AmqpConnectionManager, type ChannelWrapper, type CreateChannelOpts } from 'amqp-connection-manager';
import type { Channel } from 'amqplib';
import { assertTopology, topologyOf, type Topology } from './topology';

export interface RabbitMqConnectionOptions {
  url: string;
  queue: string;
  maxLength: number;
  deliveryLimit: number;
  /** Seconds between heartbeats; a dead broker is noticed within ~2 intervals (spec: broker.rabbitmq.heartbeatS). */
  heartbeatSeconds: number;
  /** Seconds between reconnection attempts (spec: broker.rabbitmq.reconnectS). */
  reconnectSeconds: number;
}

export class RabbitMqConnection {
  readonly manager: AmqpConnectionManager;
  readonly topology: Topology;

  constructor(private readonly options: RabbitMqConnectionOptions) {
    this.topology = topologyOf(options.queue);
    this.manager = amqp.connect([options.url], {
      heartbeatIntervalInSeconds: options.heartbeatSeconds,
      reconnectTimeInSeconds: options.reconnectSeconds,
    });
    // Failed (re)connection attempts are retried by the manager; keep them from crashing the process.
    this.manager.on('connectFailed', () => undefined);
  }

  /**
   * A channel whose setup re-runs on every reconnection. A setup cut short by a closing
   * connection ("Channel ended, no reply will be forthcoming") is emitted as 'error': heard here,
   * because an unheard 'error' event throws and would take the whole process down, while the
   * manager sets the channel up again on the next connection anyway.
   */
  createChannel(options: CreateChannelOpts & { name: string }, log: (line: string) => void = (line) => console.warn(line)): ChannelWrapper {
    const channel = this.manager.createChannel(options);
    channel.on('error', (err: Error) => log(`rabbitmq channel ${options.name}: ${err.message} (set up again on reconnection)`));
    return channel;
  }

  /** Declares this connection's work queue (and its dead-letter queue). */
  assertTopology(channel: Channel): Promise<void> {
    return this.assertTopologyOf(channel, this.topology);
  }

  /** Declares another work queue with the same bound and delivery limit (dispatch pipeline: each filter's queue). */
  assertTopologyOf(channel: Channel, topology: Topology): Promise<void> {
    return assertTopology(channel, topology, {
      maxLength: this.options.maxLength,
      deliveryLimit: this.options.deliveryLimit,
    });
  }

  get connected(): boolean {
    return this.manager.isConnected();
  }

  close(): Promise<void> {
    return this.manager.close();
  }
}
