import { parseUpstreamUrls, UpstreamPool } from './upstream-pool';

describe('UpstreamPool', () => {
  let clock = 0;
  const now = () => clock;
  let pool: UpstreamPool;
  beforeEach(() => {
    clock = 1000;
    pool = new UpstreamPool('exercise', ['http://a', 'http://b', 'http://c'], { downCooldownMs: 500, maxSockets: 8, maxFreeSockets: 2, now });
  });
  afterEach(() => pool.close());

  const pickUrl = () => {
    const p = pool.pick();
    return p.ok ? p.replica.url : `down:${p.retryAfterMs}`;
  };

  it('round-robins', () => {
    expect([pickUrl(), pickUrl(), pickUrl(), pickUrl()]).toEqual(['http://a', 'http://b', 'http://c', 'http://a']);
  });

  it('skips a replica known down until its cooldown ends', () => {
    pool.markDown(pool.replicas[1]);
    expect([pickUrl(), pickUrl(), pickUrl()]).toEqual(['http://a', 'http://c', 'http://a']);
    clock += 500;
    expect([pickUrl(), pickUrl()]).toEqual(['http://b', 'http://c']);
  });

  it('reports when every replica is down and for how long', () => {
    pool.replicas.forEach((r) => pool.markDown(r));
    clock += 200;
    expect(pickUrl()).toBe('down:300');
  });
});

describe('parseUpstreamUrls', () => {
  it('splits a comma list and trims trailing slashes', () => {
    expect(parseUpstreamUrls('leftover', 'http://127.0.0.1:3200/, http://127.0.0.1:3201')).toEqual([
      'http://127.0.0.1:3200',
      'http://127.0.0.1:3201',
    ]);
  });
  it('rejects empty lists and non-http URLs', () => {
    expect(() => parseUpstreamUrls('leftover', ' , ')).toThrow(/empty/);
    expect(() => parseUpstreamUrls('leftover', 'https://x')).toThrow(/only http/);
    expect(() => parseUpstreamUrls('leftover', 'not a url')).toThrow();
  });
});
