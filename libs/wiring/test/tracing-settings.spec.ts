import { encodeProcessConfig, loadVariant, loopbackUpstreams, processConfigOf } from '@shellgrade/variant';
import { tracingSettingsOf } from '../src/tracing-settings';

/** SG_PROCESS as the launcher writes it, for replica 2 of msa-1-2's gateway. */
function processEnv(tracing: object): NodeJS.ProcessEnv {
  const spec = loadVariant('msa-1-2');
  const cfg = processConfigOf({ ...spec, tracing: { ...spec.tracing, ...tracing } }, 'gateway', 2, { host: '127.0.0.1', port: 3100, upstreams: loopbackUpstreams(spec) });
  return { SG_PROCESS: encodeProcessConfig(cfg) };
}

describe('the telemetry preload settings', () => {
  it('are off without a process config (a service started by hand) or when the spec does not trace', () => {
    expect(tracingSettingsOf({})).toBeNull();
    expect(tracingSettingsOf(processEnv({ enabled: false }))).toBeNull();
  });

  it('read role, replica, variant and ratio off the validated process config, and the collector off the connections', () => {
    expect(tracingSettingsOf(processEnv({ enabled: true, sampleRatio: 0.25 }))).toEqual({
      role: 'gateway', replica: 2, variant: 'msa-1-2', sampleRatio: 0.25, otlpEndpoint: 'http://127.0.0.1:4318',
    });
    expect(tracingSettingsOf({ ...processEnv({ enabled: true }), OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })?.otlpEndpoint).toBe('http://collector:4318');
  });

  it('refuse what the service refuses: malformed JSON, a bad ratio or replica, naming the field', () => {
    expect(() => tracingSettingsOf({ SG_PROCESS: 'not json' })).toThrow(/SG_PROCESS is not JSON/);
    const good = JSON.parse(processEnv({ enabled: true }).SG_PROCESS!);
    expect(() => tracingSettingsOf({ SG_PROCESS: JSON.stringify({ ...good, spec: { ...good.spec, tracing: { enabled: true, sampleRatio: 2 } } }) })).toThrow(/sampleRatio/);
    expect(() => tracingSettingsOf({ SG_PROCESS: JSON.stringify({ ...good, replica: -1 }) })).toThrow(/replica/);
  });
});
