/**
 * ParentBased(TraceIdRatio) where the ratio also applies to remote parents: k6 marks
 * every traceparent as sampled, so a plain ParentBased sampler would trace everything
 * and ignore spec.tracing.sampleRatio. TraceIdRatio decides from the trace id alone, so the
 * gateway and the services it calls reach the same decision for one request; children
 * inside a process follow their local parent.
 */
import { ParentBasedSampler, TraceIdRatioBasedSampler, type Sampler } from '@opentelemetry/sdk-trace-base';

export function edgeSampler(ratio: number): Sampler {
  const byTraceId = new TraceIdRatioBasedSampler(ratio);
  return new ParentBasedSampler({ root: byTraceId, remoteParentSampled: byTraceId });
}
