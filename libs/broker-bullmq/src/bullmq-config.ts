/**
 * BullMQ's own settings beside the shared broker ones (libs/variant's `broker.bullmq`, where
 * each default is documented): job lock, stalled-job recovery and retention.
 */
import type { BrokerSettings } from '@shellgrade/dispatch';

export interface BullMqSettings extends BrokerSettings {
  bullmq: {
    lockMs: number;
    stalledIntervalMs: number;
    maxStalled: number;
    keepCompleted: number;
    keepFailed: number;
  };
}
