/**
 * RabbitMQ, MinIO and Jaeger as `servers up` leaves them: each answers a real client with the
 * runtime config's default endpoints and credentials, and refuses wrong credentials.
 * Never stops or wipes servers (other suites use them concurrently).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import path from 'node:path';
import amqp from 'amqplib';
import { loadConnections } from '@shellgrade/variant';

const run = promisify(execFile);
// CLI calls spawn pm2/node/psql: seconds each on a loaded 2-core machine.
jest.setTimeout(120_000);
const SERVERS_CLI = path.resolve(__dirname, '../bin/servers');
const defaults = loadConnections({});
const JAEGER_QUERY = 'http://127.0.0.1:16686';

async function servers(...args: string[]): Promise<string> {
  const { stdout } = await run('bash', [SERVERS_CLI, ...args], {
    cwd: '/',
    timeout: 20 * 60_000,
    maxBuffer: 16 << 20,
  });
  return stdout;
}

/** A SigV4-signed S3 request (curl signs it); resolves to the HTTP status and body. */
async function s3(
  method: string,
  key: string,
  opts: { secret?: string; body?: string } = {},
): Promise<{ status: number; body: string }> {
  // curl 7.88 signs the headers, not the body: declare the payload unsigned (S3 allows it).
  const args = ['-s', '-w', '\n%{http_code}', '-X', method, '--aws-sigv4', 'aws:amz:us-east-1:s3'];
  args.push('-H', 'x-amz-content-sha256: UNSIGNED-PAYLOAD');
  args.push('--user', `${defaults.MINIO_ACCESS_KEY}:${opts.secret ?? defaults.MINIO_SECRET_KEY}`);
  if (opts.body !== undefined) args.push('--data-binary', opts.body);
  if (method === 'HEAD') args.push('-I');
  args.push(`${defaults.MINIO_ENDPOINT}/${defaults.MINIO_BUCKET}/${key}`);
  const { stdout } = await run('curl', args);
  const cut = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) };
}

describe('servers CLI: rabbitmq, minio, jaeger', () => {
  beforeAll(async () => {
    await servers('up', 'rabbitmq', 'minio', 'jaeger');
  }, 20 * 60_000);

  it('reports the three healthy in `status`', async () => {
    const table = await servers('status');
    for (const name of ['rabbitmq', 'minio', 'jaeger']) {
      expect(table).toMatch(new RegExp(`^${name}\\s+online\\s+\\d+\\s+\\d+\\s+yes$`, 'm'));
    }
  });

  it('accepts user shellgrade on AMQP_URL: a confirmed publish comes back from a queue', async () => {
    const conn = await amqp.connect(defaults.AMQP_URL);
    try {
      const ch = await conn.createConfirmChannel();
      const { queue } = await ch.assertQueue('', { exclusive: true, autoDelete: true });
      const payload = randomBytes(8).toString('hex');
      ch.sendToQueue(queue, Buffer.from(payload));
      await ch.waitForConfirms();
      const msg = await ch.get(queue, { noAck: true });
      expect(msg && msg.content.toString()).toBe(payload);
      await ch.close();
    } finally {
      await conn.close();
    }
  });

  it('refuses AMQP logins with a wrong password', async () => {
    const url = defaults.AMQP_URL.replace(':shellgrade@', ':not-the-password@');
    await expect(amqp.connect(url)).rejects.toThrow(/ACCESS_REFUSED|403/);
  });

  it('serves the archive bucket on MinIO: put, get, delete an object; wrong secret is 403', async () => {
    const ready = await fetch(`${defaults.MINIO_ENDPOINT}/minio/health/ready`);
    expect(ready.status).toBe(200);
    const key = `servers-int-test/${randomBytes(6).toString('hex')}.txt`;
    const content = `probe ${Date.now()}`;
    expect((await s3('PUT', key, { body: content })).status).toBe(200);
    expect(await s3('GET', key)).toEqual({ status: 200, body: content });
    expect((await s3('GET', key, { secret: 'wrong-secret' })).status).toBe(403);
    expect((await s3('DELETE', key)).status).toBe(204);
    expect((await s3('GET', key)).status).toBe(404);
  });

  it('stores an OTLP/HTTP span in Jaeger and serves it back from the query API', async () => {
    const traceId = randomBytes(16).toString('hex');
    const now = BigInt(Date.now()) * 1_000_000n;
    const body = {
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'servers-int-test' } }] },
          scopeSpans: [
            {
              spans: [
                {
                  traceId,
                  spanId: randomBytes(8).toString('hex'),
                  name: 'probe-span',
                  kind: 1,
                  startTimeUnixNano: String(now - 5_000_000n),
                  endTimeUnixNano: String(now),
                },
              ],
            },
          ],
        },
      ],
    };
    const sent = await fetch(`${defaults.OTEL_EXPORTER_OTLP_ENDPOINT}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(sent.status).toBe(200);

    // The batch processor flushes within ~200 ms; poll a bounded number of times.
    let spans: { operationName: string }[] = [];
    for (let attempt = 0; attempt < 50 && spans.length === 0; attempt++) {
      const res = await fetch(`${JAEGER_QUERY}/api/traces/${traceId}`);
      if (res.status === 200) {
        const json = (await res.json()) as { data: { spans: { operationName: string }[] }[] };
        spans = json.data[0]?.spans ?? [];
      }
      if (spans.length === 0) await new Promise((r) => setTimeout(r, 200));
    }
    expect(spans.map((s) => s.operationName)).toEqual(['probe-span']);
  });
});
