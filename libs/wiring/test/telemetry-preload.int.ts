/**
 * The preload as services run it (node -r dist/libs/wiring/src/telemetry-preload.js), in real
 * child processes: the SDK is not loaded when tracing is off, a malformed process config is
 * refused as the service would refuse it, and a stopping process exits with its span counts
 * logged even when the collector never answers.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { encodeProcessConfig, loadVariant, loopbackUpstreams, processConfigOf } from '@shellgrade/variant';

const run = promisify(execFile);
const REPO = resolve(__dirname, '../../..');
const REGISTER = join(REPO, 'dist/libs/wiring/src/telemetry-preload.js');
const INDEX = join(REPO, 'dist/libs/telemetry/src/index.js');

jest.setTimeout(60_000);

beforeAll(() => {
  if (!existsSync(REGISTER)) throw new Error(`${REGISTER} missing: run npm run build first`);
});

describe('telemetry preload', () => {
  /** SG_PROCESS as the launcher writes it: the whole validated spec of a preset. */
  const processEnv = (tracing: boolean) => {
    const spec = loadVariant('naked-mon');
    const cfg = processConfigOf({ ...spec, tracing: { ...spec.tracing, enabled: tracing } }, 'monolith', 0, { host: '127.0.0.1', port: 3000, upstreams: loopbackUpstreams(spec) });
    return encodeProcessConfig(cfg);
  };

  it('does not load the SDK or any instrumentation when tracing is off', async () => {
    const script = `console.log(JSON.stringify(Object.keys(require.cache)))`;
    const { stdout } = await run(process.execPath, ['-r', REGISTER, '-e', script], { env: { ...process.env, SG_PROCESS: processEnv(false) } });
    const loaded = JSON.parse(stdout) as string[];
    expect(loaded).toContain(REGISTER); // the preload did run
    // Only the API (no-op until an SDK registers); no SDK, exporter or instrumentation.
    expect(loaded.filter((f) => /@opentelemetry\/(sdk-|exporter-|instrumentation)|telemetry\/src\/sdk/.test(f))).toEqual([]);
  });

  it('starts the SDK when the spec traces', async () => {
    const script = `console.log(JSON.stringify(Object.keys(require.cache)))`;
    const { stdout } = await run(process.execPath, ['-r', REGISTER, '-e', script], { env: { ...process.env, SG_PROCESS: processEnv(true) } });
    expect((JSON.parse(stdout) as string[]).some((f) => f.includes('@opentelemetry/sdk-trace-base'))).toBe(true);
  });

  it('refuses a malformed process config, naming the field, as the service would', async () => {
    const bad = JSON.stringify({ ...JSON.parse(processEnv(true)), replica: -1 });
    const failed = await run(process.execPath, ['-r', REGISTER, '-e', '0'], { env: { ...process.env, SG_PROCESS: bad } }).then(() => null, (e: { stderr: string }) => e);
    expect(failed?.stderr).toMatch(/replica/);
  });

  it('exits on SIGTERM within the flush cap, logging counts, when the collector never answers', async () => {
    const sockets: Socket[] = [];
    const blackhole: Server = createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => blackhole.listen(0, '127.0.0.1', r));
    const port = (blackhole.address() as { port: number }).port;
    try {
      const script = `require(${JSON.stringify(INDEX)}).withSpan('unit.span', {}, async () => undefined);
        setInterval(() => {}, 1000);
        setTimeout(() => process.kill(process.pid, 'SIGTERM'), 300);`;
      const child = spawn(process.execPath, ['-r', REGISTER, '-e', script], {
        env: { ...process.env, SG_PROCESS: processEnv(true), OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` },
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      // The collector never answers: exiting at all, with the message, is the proof.
      const code = await new Promise<number | null>((r) => child.once('exit', r));
      expect(code).toBe(0);
      expect(stderr).toContain('exiting anyway');
      expect(stderr).toMatch(/\[telemetry\] spans \{"ended":1,"droppedQueueFull":0,"exported":0/);
    } finally {
      for (const s of sockets) s.destroy();
      blackhole.close();
    }
  });
});
