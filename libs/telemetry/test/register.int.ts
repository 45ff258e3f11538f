/**
 * The preload as services run it (node -r dist/libs/telemetry/src/register.js), in real
 * child processes: nothing is loaded when tracing is off, and a stopping process exits
 * with its span counts logged even when the collector never answers.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPO = resolve(__dirname, '../../..');
const REGISTER = join(REPO, 'dist/libs/telemetry/src/register.js');
const INDEX = join(REPO, 'dist/libs/telemetry/src/index.js');

jest.setTimeout(60_000);

beforeAll(() => {
  if (!existsSync(REGISTER)) throw new Error(`${REGISTER} missing: run npm run build first`);
});

describe('telemetry preload', () => {
  it('loads nothing but its settings reader when tracing is off', async () => {
    const script = `const loaded = Object.keys(require.cache).filter((f) => !f.endsWith('[eval]'));
      console.log(JSON.stringify(loaded));`;
    const { stdout } = await run(process.execPath, ['-r', REGISTER, '-e', script], { env: { ...process.env, SG_PROCESS: JSON.stringify({ spec: { tracing: { enabled: false } } }) } });
    const loaded = (JSON.parse(stdout) as string[]).map((f) => f.slice(REPO.length));
    expect(loaded.sort()).toEqual(['/dist/libs/telemetry/src/register.js', '/dist/libs/telemetry/src/settings.js']);
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
        env: { ...process.env, SG_PROCESS: JSON.stringify({ spec: { tracing: { enabled: true } } }), OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` },
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
