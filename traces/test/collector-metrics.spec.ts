import { parseCollectorMetrics } from '../src/jaeger/collector-metrics';

describe('Jaeger collector metrics', () => {
  it('sums each span counter over its label sets and ignores the rest', () => {
    const text = [
      '# HELP otelcol_receiver_accepted_spans_total Number of spans successfully pushed into the pipeline.',
      '# TYPE otelcol_receiver_accepted_spans_total counter',
      'otelcol_receiver_accepted_spans_total{receiver="otlp",transport="grpc"} 292',
      'otelcol_receiver_accepted_spans_total{receiver="otlp",transport="http"} 13223',
      'otelcol_receiver_refused_spans_total{receiver="otlp",transport="http"} 5',
      'otelcol_receiver_failed_spans_total{receiver="otlp",transport="http"} 0',
      'otelcol_exporter_sent_spans_total{exporter="jaeger_storage_exporter"} 1.3515e+04',
      'otelcol_exporter_send_failed_spans_total{exporter="jaeger_storage_exporter"} 2',
      'otelcol_process_uptime 12',
    ].join('\n');
    expect(parseCollectorMetrics('u', text)).toEqual({ url: 'u', acceptedSpans: 13515, refusedSpans: 5, failedSpans: 0, storedSpans: 13515, storeFailedSpans: 2 });
  });
});
