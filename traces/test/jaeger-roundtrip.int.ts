/**
 * Real round trip: Jaeger and PostgreSQL started by infra/bin/servers, a tiny service
 * preloaded with dist/libs/wiring/src/telemetry-preload.js (the artifact services use), requests
 * carrying a W3C traceparent as k6 sends it, then the traces pulled back from Jaeger's
 * query API through traces/'s client and attributed by the `traces attribute` CLI.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { encodeProcessConfig, loadVariant, loopbackUpstreams, processConfigOf } from '@shellgrade/variant';
import { JaegerClient } from '../src/jaeger/client';
import type { Trace } from '@shellgrade/trace-model';
import type { BreakdownFile } from '../src/report/breakdown-file';

const run = promisify(execFile);
const REPO = resolve(__dirname, '../..');
const REGISTER = join(REPO, 'dist/libs/wiring/src/telemetry-preload.js');
const CLI = join(REPO, 'dist/traces/src/cli.js');
const APP = join(__dirname, 'fixtures/traced-app.js');
const NEST_APP = join(__dirname, 'fixtures/traced-nest-app.js');
const JAEGER_URL = 'http://127.0.0.1:16686';
const VARIANT = `int-traces-${randomBytes(4).toString('hex')}`;

jest.setTimeout(20 * 60_000);

interface App {
  child: ChildProcessWithoutNullStreams;
  port: number;
  stderr: () => string;
}

function processConfig(tracing: boolean): string {
  const spec = loadVariant('naked-mon');
  const traced = { ...spec, name: VARIANT, tracing: { enabled: tracing, sampleRatio: 1 } };
  return encodeProcessConfig(processConfigOf(traced, 'monolith', 0, { host: '127.0.0.1', port: 3000, upstreams: loopbackUpstreams(spec) }));
}

function startApp(tracing: boolean, script = APP): Promise<App> {
  const child = spawn(process.execPath, ['-r', REGISTER, script], {
    cwd: REPO,
    // The process config (SG_PROCESS) as the launcher writes it, under this test's variant name.
    env: { ...process.env, SG_PROCESS: processConfig(tracing) },
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error(`app did not start: ${stderr}`)), 30_000);
    child.stdout.once('data', (d: Buffer) => {
      clearTimeout(timer);
      resolvePort({ child, port: (JSON.parse(d.toString()) as { port: number }).port, stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`app exited with ${code}: ${stderr}`)));
  });
}

function stopApp(app: App): Promise<number | null> {
  return new Promise((done) => {
    if (app.child.exitCode !== null) return done(app.child.exitCode);
    const timer = setTimeout(() => app.child.kill('SIGKILL'), 20_000);
    app.child.once('exit', (code) => {
      clearTimeout(timer);
      done(code);
    });
    app.child.kill('SIGTERM');
  });
}

interface Sent {
  traceId: string;
  parentSpanId: string;
  status: number;
  durationMs: number;
}

/** One request with a fresh k6-style traceparent (the jest process itself is not instrumented). */
function send(port: number, method: string, path: string): Promise<Sent> {
  const traceId = randomBytes(16).toString('hex');
  const parentSpanId = randomBytes(8).toString('hex');
  const started = performance.now();
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { traceparent: `00-${traceId}-${parentSpanId}-01` } }, (res) => {
      res.resume();
      res.on('end', () => done({ traceId, parentSpanId, status: res.statusCode ?? 0, durationMs: performance.now() - started }));
    });
    req.on('error', fail);
    req.end();
  });
}

/** Polls Jaeger until the trace has `minSpans` (spans arrive in export batches); fails after `maxPolls`, 500 ms apart. */
async function waitForTrace(jaeger: JaegerClient, traceId: string, minSpans: number, maxPolls = 60): Promise<Trace> {
  let t: Trace | undefined;
  for (let poll = 1; poll <= maxPolls; poll++) {
    t = await jaeger.trace(traceId);
    if (t && t.spans.length >= minSpans) return t;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`trace ${traceId} not in Jaeger with ${minSpans} spans after ${maxPolls} polls (has ${t?.spans.length ?? 0})`);
}

describe('traces through real Jaeger', () => {
  const jaeger = new JaegerClient(JAEGER_URL);
  let windowStart: number;
  let untraced: Sent;
  let traced: Sent[];
  let telemetryLog: string;
  let nest: Sent;

  beforeAll(async () => {
    if (!existsSync(REGISTER) || !existsSync(CLI)) throw new Error(`${REGISTER} or ${CLI} missing: run npm run build first`);
    await run('bash', [join(REPO, 'infra/bin/servers'), 'up', 'postgres', 'jaeger'], { timeout: 15 * 60_000, maxBuffer: 16 << 20 });
    windowStart = Date.now() - 1_000;

    const off = await startApp(false);
    untraced = await send(off.port, 'POST', '/api/exercise-production');
    await stopApp(off);

    const on = await startApp(true);
    await send(on.port, 'GET', '/health');
    traced = [];
    for (let i = 0; i < 3; i++) traced.push(await send(on.port, 'POST', '/api/exercise-production'));
    expect(await stopApp(on)).toBe(0);
    telemetryLog = on.stderr();

    const nestApp = await startApp(true, NEST_APP);
    nest = await send(nestApp.port, 'POST', '/api/exercise-production');
    expect(await stopApp(nestApp)).toBe(0);
  });

  it('answers the requests', () => {
    expect(untraced.status).toBe(201);
    expect(traced.map((s) => s.status)).toEqual([201, 201, 201]);
  });

  it('flushes every span at shutdown and reports none dropped', () => {
    const line = /\[telemetry\] spans (\{.*\})/.exec(telemetryLog);
    expect(line).not.toBeNull();
    const counts = JSON.parse(line![1]) as Record<string, number>;
    expect(counts.ended).toBeGreaterThanOrEqual(3 * 5);
    expect(counts.exported).toBe(counts.ended);
    expect(counts.droppedQueueFull).toBe(0);
    expect(counts.exportFailed).toBe(0);
  });

  it('stores one trace per request with the client parent, service identity and span tree', async () => {
    for (const sent of traced) {
      const t = await waitForTrace(jaeger, sent.traceId, 5);
      const byId = new Map(t.spans.map((s) => [s.spanId, s]));
      const root = t.spans.find((s) => s.parentId === sent.parentSpanId)!;
      expect(root).toBeDefined();
      expect(root).toMatchObject({ name: 'POST /api/exercise-production', kind: 'server', service: 'shellgrade-monolith' });
      expect(root.resource).toMatchObject({ 'service.instance.id': 'monolith-0', variant: VARIANT });
      expect(t.spans.every((s) => s.service === 'shellgrade-monolith')).toBe(true);

      const ancestors = (id: string | undefined): string[] => {
        const out: string[] = [];
        for (let s = id ? byId.get(id) : undefined; s; s = s.parentId ? byId.get(s.parentId) : undefined) out.push(s.name);
        return out;
      };
      const queries = t.spans.filter((s) => (s.tags['db.system.name'] ?? s.tags['db.system']) === 'postgresql' && s.name.startsWith('pg.query'));
      expect(queries.length).toBe(2);
      for (const q of queries) expect(ancestors(q.spanId)).toContain('POST /api/exercise-production');
      const put = t.spans.find((s) => s.name === 'storage.put')!;
      expect(put.tags).toMatchObject({ 'shellgrade.storage.backend': 'postgres', 'shellgrade.storage.key': 'production/1' });
      expect(queries.some((q) => ancestors(q.parentId)[0] === 'storage.put')).toBe(true);
      // Express instrumentation names the route; middleware layers are not traced.
      expect(t.spans.some((s) => s.name.startsWith('request handler'))).toBe(true);
      expect(t.spans.some((s) => s.tags['express.type'] === 'middleware')).toBe(false);
    }
  });

  it('instruments a Nest 12 (ESM) app: route-named root, express handler, controller and pg spans', async () => {
    expect(nest.status).toBe(201);
    const t = await waitForTrace(jaeger, nest.traceId, 4);
    const names = t.spans.map((s) => s.name);
    const root = t.spans.find((s) => s.parentId === nest.parentSpanId)!;
    expect(root.name).toBe('POST /api/exercise-production');
    expect(names).toEqual(expect.arrayContaining(['ProductionController.submit']));
    expect(names.some((n) => n.startsWith('request handler'))).toBe(true);
    expect(names.some((n) => n.startsWith('pg.query'))).toBe(true);
  });

  it('records nothing with tracing off, nor for /health', async () => {
    await waitForTrace(jaeger, traced[2].traceId, 5);
    expect(await jaeger.trace(untraced.traceId)).toBeUndefined();
    const windowTraces = await jaeger.search({ service: 'shellgrade-monolith', fromMs: windowStart, toMs: Date.now() + 1_000 });
    // Server spans only: Nest's "Create Nest App" start-up span is a trace of its own.
    const ours = windowTraces.filter((t) => t.spans.some((s) => s.resource.variant === VARIANT && s.kind === 'server'));
    expect(ours.map((t) => t.traceId).sort()).toEqual([...traced, nest].map((s) => s.traceId).sort());
  });

  it('attributes the requests with the CLI, matching k6-style client samples', async () => {
    const out = mkdtempSync(join(tmpdir(), 'sg-breakdown-'));
    const lines = traced.map((s) => JSON.stringify({ sg: 'sps', trace_id: s.traceId, duration_ms: s.durationMs, status: s.status }));
    writeFileSync(join(out, 'k6-console.log'), `${lines.join('\n')}\n`);
    const { stdout } = await run(process.execPath, [
      CLI, 'attribute', '--from', new Date(windowStart).toISOString(), '--to', new Date(Date.now() + 1_000).toISOString(),
      '--service', 'shellgrade-monolith', '--jaeger', JAEGER_URL, '--out', out,
    ]);
    expect(stdout).toContain(`${VARIANT}: 4 SPS`);
    const file = JSON.parse(readFileSync(join(out, 'breakdown.json'), 'utf8')) as BreakdownFile;
    const v = file.variants.find((x) => x.variant === VARIANT)!;
    expect(v.requests).toBe(4);
    expect(file.collector?.acceptedSpans).toBeGreaterThan(0);
    expect(v.matchedClientSamples).toBe(3);
    expect(v.components.database.median).toBeGreaterThanOrEqual(20); // pg_sleep(0.02)
    expect(v.components.storage.median).toBeGreaterThan(0);
    expect(v.components['client/queueing'].median).toBeGreaterThanOrEqual(0);
    expect(v.explainedShare).toBeGreaterThan(0.99);
    for (const r of file.requests.filter((x) => x.variant === VARIANT)) {
      const sum = Object.values(r.components).reduce<number>((s, x) => s + (x ?? 0), 0);
      expect(sum).toBeCloseTo(r.totalMs, 3);
    }
    expect(readFileSync(join(out, 'breakdown.md'), 'utf8')).toContain(`## ${VARIANT}`);
    expect(existsSync(join(out, 'breakdown.html'))).toBe(true);
  });
});
