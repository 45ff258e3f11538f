import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installationSecrets } from '../src/secrets';

describe('per-installation secrets', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sg-secrets-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('are generated once, readable by the owner only, and the same on every later call', () => {
    const file = join(dir, 'run', 'secrets.json');
    const first = installationSecrets(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(installationSecrets(file)).toEqual(first);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(first);
  });

  it('differ between installations and are none of the published defaults', () => {
    const a = installationSecrets(join(dir, 'a.json'));
    const b = installationSecrets(join(dir, 'b.json'));
    expect(a.jwtSecret).not.toBe(b.jwtSecret);
    expect(a.dbPassword).not.toBe(b.dbPassword);
    expect(Object.values(a)).not.toEqual(expect.arrayContaining(['shellgrade', 'shellgrade-secret', 'shellgrade-dev-secret-change-me']));
  });

  it('an older file without a newer secret (the Redis password) gets it generated and kept; the rest stays', () => {
    const file = join(dir, 'secrets.json');
    const { redisPassword: _dropped, ...older } = installationSecrets(file);
    writeFileSync(file, JSON.stringify(older), { mode: 0o600 });
    const now = installationSecrets(file);
    expect(now).toMatchObject(older);
    expect(now.redisPassword.length).toBeGreaterThanOrEqual(32);
    expect(installationSecrets(file)).toEqual(now);
  });

  it('refuses a secrets file others can read', () => {
    const file = join(dir, 'secrets.json');
    installationSecrets(file);
    chmodSync(file, 0o644);
    expect(() => installationSecrets(file)).toThrow(/readable by others \(mode 644\): chmod 600/);
  });
});
