import express from 'express';
import request from 'supertest';
import { httpDuration, httpMetricsMiddleware } from './observability';

/** Route labels the histogram holds after these requests. */
async function routesAfter(send: (app: express.Express) => Promise<unknown>): Promise<string[]> {
  httpDuration.reset();
  const app = express();
  app.use(httpMetricsMiddleware);
  app.use(express.json({ limit: 16 }));
  app.get('/api/exercise/:id', (_req, res) => res.json({}));
  await send(app);
  const { values } = await httpDuration.get();
  return [...new Set(values.map((v) => String(v.labels.route)))];
}

describe('HTTP request metrics', () => {
  it('label a matched request with its route template, not its raw path', async () => {
    expect(await routesAfter((app) => request(app).get('/api/exercise/123'))).toEqual(['/api/exercise/:id']);
  });

  it('label every unmatched request alike, whatever its path or status (bounded cardinality)', async () => {
    const routes = await routesAfter(async (app) => {
      await request(app).get('/api/nothing/1');
      await request(app).post('/api/anything/2').send({ too: 'large for the 16-byte limit' }); // 413 before routing
      await request(app).post('/api/anything/3').set('Content-Type', 'application/json').send('{bad'); // 400
    });
    expect(routes).toEqual(['unmatched']);
  });
});
