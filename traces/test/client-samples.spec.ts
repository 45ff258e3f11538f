import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseSampleLine, readClientSamples } from '../src/samples/client-samples';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const spsLine = JSON.stringify({ sg: 'sps', trace_id: TRACE, span_id: '00f067aa0ba902b7', start_ms: 1, duration_ms: 123.4, status: 201, outcome: 'ok' });

describe('client samples', () => {
  it('reads the SPS console line raw and inside k6 logfmt', () => {
    expect(parseSampleLine(spsLine)).toEqual({ traceId: TRACE, durationMs: 123.4, startMs: 1, status: 201 });
    const logfmt = `time="2026-11-22T02:00:00Z" level=info msg="${spsLine.replace(/"/g, '\\"')}" source=console`;
    expect(parseSampleLine(logfmt)?.durationMs).toBe(123.4);
    const jsonLog = JSON.stringify({ level: 'info', msg: spsLine, source: 'console', time: '2026-11-22T03:00:00Z' });
    expect(parseSampleLine(jsonLog)?.traceId).toBe(TRACE);
  });

  it('reads raw k6 JSON points carrying the trace id as metadata', () => {
    const point = JSON.stringify({ type: 'Point', metric: 'http_req_duration', data: { time: 't', value: 88.5, tags: { name: 'sps', status: '201' }, metadata: { trace_id: TRACE.toUpperCase() } } });
    expect(parseSampleLine(point)).toEqual({ traceId: TRACE, durationMs: 88.5, status: 201 });
    const other = JSON.stringify({ type: 'Point', metric: 'http_req_waiting', data: { value: 1, metadata: { trace_id: TRACE } } });
    expect(parseSampleLine(other)).toBeUndefined();
  });

  it('skips malformed and unrelated lines', () => {
    expect(parseSampleLine('{"trace_id": oops')).toBeUndefined();
    expect(parseSampleLine('plain text')).toBeUndefined();
    expect(parseSampleLine(JSON.stringify({ sg: 'sps', trace_id: TRACE }))).toBeUndefined();
  });

  it('scans a run folder (nested, gzipped) and yields nothing when it is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-traces-'));
    mkdirSync(join(dir, 'run-1'));
    writeFileSync(join(dir, 'run-1', 'k6.log'), `noise\n${spsLine}\n`);
    const second = spsLine.replace(TRACE, 'a'.repeat(32));
    writeFileSync(join(dir, 'run-1', 'samples.json.gz'), gzipSync(`${second}\n`));
    const samples = await readClientSamples(dir);
    expect([...samples.keys()].sort()).toEqual([TRACE, 'a'.repeat(32)]);
    expect((await readClientSamples(join(dir, 'absent'))).size).toBe(0);
  });
});
