import express from 'express';
import request from 'supertest';
import cors from 'cors';
import { corsOptions } from './cors';

/** A bare express app with our CORS options (the cors package is what Nest's enableCors runs). */
function app(origins: string) {
  const a = express();
  a.use(cors(corsOptions(origins)));
  a.get('/api/x', (_req, res) => res.json({ ok: true }));
  return a;
}

describe('CORS options', () => {
  it('allows nothing cross-origin by default (empty list), yet answers preflights', async () => {
    const res = await request(app('')).get('/api/x').set('Origin', 'http://evil.example');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await request(app('')).options('/api/x').set('Origin', 'http://evil.example').set('Access-Control-Request-Method', 'POST');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('never echoes an arbitrary origin together with credentials', async () => {
    const res = await request(app('*')).get('/api/x').set('Origin', 'http://evil.example');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('allows listed origins with credentials, and only them', async () => {
    const listed = await request(app('http://spa.example, http://admin.example')).get('/api/x').set('Origin', 'http://spa.example');
    expect(listed.headers['access-control-allow-origin']).toBe('http://spa.example');
    expect(listed.headers['access-control-allow-credentials']).toBe('true');
    const other = await request(app('http://spa.example')).get('/api/x').set('Origin', 'http://evil.example');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});
