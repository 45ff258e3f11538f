import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultDatabaseUrl, LOOPBACK_DATABASE_URL } from './connections';

describe('the default database address', () => {
  let repo: string;
  beforeEach(() => {
    repo = mkdtempSync(join(tmpdir(), 'sg-repo-'));
  });
  afterEach(() => rmSync(repo, { recursive: true, force: true }));

  it('is loopback TCP while this machine runs no PostgreSQL socket', () => {
    expect(defaultDatabaseUrl(repo)).toBe(LOOPBACK_DATABASE_URL);
  });

  it("is the local server's unix socket once infra/bin/servers has made it, credentials and database kept", () => {
    const socketDir = join(repo, 'run', 'postgres', 'socket');
    mkdirSync(socketDir, { recursive: true });
    writeFileSync(join(socketDir, '.s.PGSQL.55432'), '');
    // (node-postgres takes a `host` parameter that is a path for the socket's folder)
    const url = new URL(defaultDatabaseUrl(repo));
    expect({ socket: url.searchParams.get('host'), port: url.port, user: url.username, password: url.password, database: url.pathname }).toEqual({
      socket: socketDir,
      port: '55432',
      user: 'shellgrade',
      password: 'shellgrade',
      database: '/shellgrade',
    });
  });
});
