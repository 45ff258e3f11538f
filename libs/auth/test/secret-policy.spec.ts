import { refuseDefaultSecrets, secretProblems } from '../src/secret-policy';

const strong = {
  jwtSecret: 'kq3v9XbL2pW8rT5mZ1cN7fH4sD6gJ0aY',
  databaseUrl: 'postgres://shellgrade:Zr8vK2qW5pL9@db:5432/shellgrade',
  brokerUrl: 'amqp://shellgrade:Tn4cX7bM1vQ3@rabbitmq:5672',
  objectStore: { accessKey: 'sg-7f3a9c', secretKey: 'Vb6nQ2xR8kT1wY5z' },
  redisUrl: 'redis://:Qw7eR4tY1uI9oP3a@redis:6379',
};
/** What the repository's defaults are today (libs/variant connections). */
const defaults = {
  jwtSecret: 'shellgrade-dev-secret-change-me',
  databaseUrl: 'postgres://shellgrade:shellgrade@127.0.0.1:55432/shellgrade',
  brokerUrl: 'amqp://shellgrade:shellgrade@127.0.0.1:55672',
  objectStore: { accessKey: 'shellgrade', secretKey: 'shellgrade-secret' },
  redisUrl: 'redis://127.0.0.1:56379',
};
const exposed = '0.0.0.0';

describe('secret policy', () => {
  it('finds every default, missing or short secret, without echoing any value', () => {
    const problems = secretProblems({ host: exposed, ...defaults });
    expect(problems).toHaveLength(5);
    expect(problems).toContain('REDIS_URL has no password or a published default one');
    expect(problems.join()).not.toMatch(/shellgrade-dev-secret|shellgrade-secret|:shellgrade@/);
    expect(secretProblems({ host: exposed, ...strong, jwtSecret: undefined })).toEqual(['SG_JWT_SECRET is missing or a published default']);
    expect(secretProblems({ host: exposed, ...strong, jwtSecret: 'short-but-not-default' })).toEqual(['SG_JWT_SECRET is shorter than 32 characters']);
    expect(secretProblems({ host: exposed, ...strong, databaseUrl: 'postgres://db:5432/sg' })).toHaveLength(1);
    expect(secretProblems({ host: exposed, ...strong, redisUrl: 'redis://:shellgrade@redis:6379' })).toHaveLength(1);
    expect(secretProblems({ host: exposed, ...strong })).toEqual([]);
  });

  it('refuses cheap password hashing beyond loopback (a paper-cost benchmark setting), the secure cost and above pass', () => {
    expect(secretProblems({ host: exposed, ...strong, kdfCost: 1 })).toEqual([
      'auth.kdfCost 1 is below 14: cheap password hashing is for loopback benchmarks (paper-faithful login cost) only',
    ]);
    expect(secretProblems({ host: exposed, ...strong, kdfCost: 14 })).toEqual([]);
    expect(() => refuseDefaultSecrets({ host: exposed, ...strong, kdfCost: 1 }, 'auto')).toThrow(/kdfCost 1/);
    expect(() => refuseDefaultSecrets({ host: '127.0.0.1', ...strong, kdfCost: 1 }, 'auto')).not.toThrow();
  });

  it('checks the broker and object store only when the variant uses them (passed in)', () => {
    expect(secretProblems({ host: exposed, jwtSecret: strong.jwtSecret, databaseUrl: strong.databaseUrl })).toEqual([]);
  });

  it('refuses to start exposed beyond loopback with defaults; loopback or development mode may', () => {
    expect(() => refuseDefaultSecrets({ host: exposed, ...defaults }, 'auto')).toThrow(/refusing to start outside development mode/);
    expect(() => refuseDefaultSecrets({ host: '127.0.0.1', ...defaults }, 'production')).toThrow(/SG_JWT_SECRET/);
    expect(() => refuseDefaultSecrets({ host: '127.0.0.1', ...defaults }, 'auto')).not.toThrow();
    expect(() => refuseDefaultSecrets({ host: exposed, ...defaults }, 'development')).not.toThrow();
    expect(() => refuseDefaultSecrets({ host: exposed, ...strong }, 'auto')).not.toThrow();
  });
});
