/**
 * The harness reads every process's /metrics with the installation's scrape
 * token (run/secrets.json), so a process that is not on loopback still answers it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scrapeCaches, scrapeHeaders } from '../src/sweep/cache-stats';

const TOKEN = 'the-installation-scrape-token-0123456789';

/** A /metrics that answers only the scrape token, as a service does to a caller that is not straight on loopback. */
function guardedMetrics(): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(404).end();
    res.end('shellgrade_cache_requests_total{cache="context",result="hit"} 7\n');
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

describe('the harness scrapes /metrics with the scrape token', () => {
  it('reads the token from the secrets file, and sends nothing when there is none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-scrape-'));
    writeFileSync(join(dir, 'secrets.json'), JSON.stringify({ jwtSecret: 'x', scrapeToken: TOKEN }));
    expect(scrapeHeaders(join(dir, 'secrets.json'))).toEqual({ Authorization: `Bearer ${TOKEN}` });
    expect(scrapeHeaders(join(dir, 'none.json'))).toEqual({});
  });

  it('gets the counters of a process that answers only the token', async () => {
    const server = await guardedMetrics();
    try {
      const port = (server.address() as AddressInfo).port;
      const caches = await scrapeCaches([{ name: 'sg-monolith-0', port, role: 'monolith' }], { Authorization: `Bearer ${TOKEN}` });
      expect(caches.get('sg-monolith-0')?.context.hit).toBe(7);
    } finally {
      server.close();
    }
  });
});
