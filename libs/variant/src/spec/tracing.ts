// The tracing section: OpenTelemetry on or off, and the share of requests sampled.
import { z } from 'zod';

export const tracingSchema = z.strictObject({
  enabled: z.boolean({ error: 'expected true or false' }).default(false),
  sampleRatio: z.number({ error: 'expected a number between 0 and 1' }).min(0).max(1).default(1),
});
