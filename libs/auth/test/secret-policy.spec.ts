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
/** Reached beyond loopback (the wiring's exposure decision: own bind address or the proxy's in front). */
const exposed = ['0.0.0.0'];
const loopbackOnly: string[] = [];

describe('secret policy', () => {
  it('finds every default, missing or short secret, without echoing any value', () => {
    const problems = secretProblems({ exposedOn: exposed, ...defaults });
    expect(problems).toHaveLength(5);
    expect(problems).toContain('REDIS_URL has no password or a published default one');
    expect(problems.join()).not.toMatch(/shellgrade-dev-secret|shellgrade-secret|:shellgrade@/);
    expect(secretProblems({ exposedOn: exposed, ...strong, jwtSecret: undefined })).toEqual(['SG_JWT_SECRET is missing or a published default']);
    expect(secretProblems({ exposedOn: exposed, ...strong, jwtSecret: 'short-but-not-default' })).toEqual(['SG_JWT_SECRET is shorter than 32 characters']);
    expect(secretProblems({ exposedOn: exposed, ...strong, databaseUrl: 'postgres://db:5432/sg' })).toHaveLength(1);
    expect(secretProblems({ exposedOn: exposed, ...strong, redisUrl: 'redis://:shellgrade@redis:6379' })).toHaveLength(1);
    expect(secretProblems({ exposedOn: exposed, ...strong })).toEqual([]);
  });

  it('refuses cheap password hashing beyond loopback (a paper-cost benchmark setting), the secure cost and above pass', () => {
    expect(secretProblems({ exposedOn: exposed, ...strong, kdfCost: 1 })).toEqual([
      'auth.kdfCost 1 is below 14: cheap password hashing is for loopback benchmarks (paper-faithful login cost) only',
    ]);
    expect(secretProblems({ exposedOn: exposed, ...strong, kdfCost: 14 })).toEqual([]);
    expect(() => refuseDefaultSecrets({ exposedOn: exposed, ...strong, kdfCost: 1 }, 'auto')).toThrow(/kdfCost 1/);
    expect(() => refuseDefaultSecrets({ exposedOn: loopbackOnly, ...strong, kdfCost: 1 }, 'auto')).not.toThrow();
  });

  it('checks the broker and object store only when the variant uses them (passed in)', () => {
    expect(secretProblems({ exposedOn: exposed, jwtSecret: strong.jwtSecret, databaseUrl: strong.databaseUrl })).toEqual([]);
  });

  it('refuses to start exposed beyond loopback with defaults; loopback or development mode may', () => {
    expect(() => refuseDefaultSecrets({ exposedOn: exposed, ...defaults }, 'auto')).toThrow(/refusing to start outside development mode/);
    expect(() => refuseDefaultSecrets({ exposedOn: loopbackOnly, ...defaults }, 'production')).toThrow(/SG_JWT_SECRET/);
    expect(() => refuseDefaultSecrets({ exposedOn: loopbackOnly, ...defaults }, 'auto')).not.toThrow();
    expect(() => refuseDefaultSecrets({ exposedOn: exposed, ...defaults }, 'development')).not.toThrow();
    expect(() => refuseDefaultSecrets({ exposedOn: exposed, ...strong }, 'auto')).not.toThrow();
  });

  it('says who refuses, where it is reached from, and how to fix it', () => {
    expect(() => refuseDefaultSecrets({ process: 'leftover replica 0', exposedOn: exposed, ...defaults, kdfCost: 1 }, 'auto')).toThrow(
      /leftover replica 0 is reached on 0\.0\.0\.0 \(beyond loopback\)[\s\S]*DATABASE_URL[\s\S]*kdfCost 1 is below 14[\s\S]*no --listen/,
    );
  });
});
