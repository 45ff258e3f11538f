/**
 * The gateway parses no request body: a 10 MB JSON submission from a caller who is not logged in
 * crosses it byte for byte, and JSON.parse never sees it here — the service behind decides, and it
 * reads JSON only after its login check (libs/http json-bodies.ts). A stub upstream on loopback
 * (it buffers, never parses); the real services behind a real gateway are test/variants.e2e.ts.
 */
import { createHash } from 'node:crypto';
import { send, startGateway, startUpstream, type RunningGateway, type Upstream } from './fixtures';

describe('gateway: request bodies pass unparsed', () => {
  let exercise: Upstream;
  let gateway: RunningGateway;

  beforeAll(async () => {
    exercise = await startUpstream((req, res) => {
      res.statusCode = 401;
      res.setHeader('Content-Type', 'application/problem+json');
      res.end(`{"status":401,"detail":"authentication required","sha256":"${createHash('sha256').update(req.body).digest('hex')}"}`);
    });
    gateway = await startGateway({ exerciseUrls: [exercise.url], leftoverUrls: [exercise.url] });
  });
  afterAll(async () => {
    await gateway?.close();
    await exercise?.close();
  });
  afterEach(() => jest.restoreAllMocks());

  it('forwards a 10 MB JSON submission without a login byte for byte, never parsing it', async () => {
    const body = `{"ex_id":2,"ps_id":1,"production_data":{"data":{${Array.from({ length: 800_000 }, (_, i) => `"${i}":255`).join(',')}}}}`;
    expect(body.length).toBeGreaterThan(10_000_000);
    const parsedLengths: number[] = [];
    const parse = JSON.parse;
    jest.spyOn(JSON, 'parse').mockImplementation((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
      parsedLengths.push(String(text).length);
      return parse(text, reviver);
    });

    const res = await send(`${gateway.url}/api/exercise-production`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });

    expect(res.status).toBe(401);
    expect(res.body.toString()).toContain(createHash('sha256').update(body).digest('hex'));
    expect(Math.max(0, ...parsedLengths)).toBeLessThan(64 * 1024);
  });
});
