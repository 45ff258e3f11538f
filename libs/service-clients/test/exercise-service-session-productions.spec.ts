import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ExerciseServiceSessionProductions } from '../src/exercise-service-session-productions';

/** A real HTTP server on a free port answering with `handler`. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('ExerciseServiceSessionProductions (S2 over the internal hop)', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });
  const client = async (handler: (req: IncomingMessage, res: ServerResponse) => void, timeoutMs = 5_000) => {
    const { url, server } = await serve(handler);
    servers.push(server);
    return new ExerciseServiceSessionProductions({ baseUrl: url, timeoutMs });
  };

  it('asks the exercise service on behalf of the caller and maps its rows', async () => {
    const seen: { url?: string; auth?: string } = {};
    const source = await client((req, res) => {
      seen.url = req.url;
      seen.auth = req.headers.authorization;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ session_id: 4, productions: [{ ep_id: 9, user_id: 2, ex_id: 3, ps_id: 5, status: 'graded', grade: 80, created_at: '2026-01-01T00:00:00.000Z' }] }));
    });
    const rows = await source.productionsOfSession(4, { accessToken: 'tok' });
    expect(seen).toEqual({ url: '/api/exercise-productions/by-session/4', auth: 'Bearer tok' });
    expect(rows).toEqual([{ productionId: 9, userId: 2, exerciseId: 3, statementId: 5, status: 'graded', grade: 80, createdAt: new Date('2026-01-01T00:00:00.000Z') }]);
  });

  it('is a 504 upstream-timeout when the exercise service does not answer in time', async () => {
    const source = await client(() => undefined, 50);
    await expect(source.productionsOfSession(1, {})).rejects.toMatchObject({ kind: 'upstream-timeout', message: expect.stringContaining('within 50 ms') });
  });

  it('is a 503 when the exercise service cannot be reached', async () => {
    const { url, server } = await serve(() => undefined);
    await new Promise((r) => server.close(r));
    const source = new ExerciseServiceSessionProductions({ baseUrl: url, timeoutMs: 5_000 });
    await expect(source.productionsOfSession(1, {})).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringContaining('cannot be reached') });
  });

  it("passes the exercise service's refusal on with its reason, and a 5xx or a garbled body as 503", async () => {
    const refusing = await client((_req, res) => {
      res.statusCode = 401;
      res.end(JSON.stringify({ title: 'Unauthorized', detail: 'access token expired' }));
    });
    await expect(refusing.productionsOfSession(1, {})).rejects.toMatchObject({ kind: 'unauthenticated', message: expect.stringContaining('access token expired') });
    const failing = await client((_req, res) => {
      res.statusCode = 500;
      res.end('boom');
    });
    await expect(failing.productionsOfSession(1, {})).rejects.toMatchObject({ kind: 'unavailable', details: { upstream_status: 500 } });
    const garbled = await client((_req, res) => res.end('{"session_id": 1, "productions": [{"ep_id": "x"}]}'));
    await expect(garbled.productionsOfSession(1, {})).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringContaining('unexpected shape') });
  });
});
