import { loadVariant } from './loader';
import { hopRefusal, parseHopRoute, routedConnectionEnv } from './hops';
import { decodeProcessConfig, PROCESS_ENV } from './process-config';
import { variantProcesses } from './processes';

describe('one hop through a fault proxy (--hop-via)', () => {
  it('exercise: the gateway calls the proxy; the callees and the database keep their addresses', () => {
    const procs = variantProcesses(loadVariant('msa-1-2'), { hop: parseHopRoute('exercise=127.0.0.1:58600') });
    const gateway = procs.find((p) => p.role === 'gateway')!;
    expect(decodeProcessConfig(gateway.env[PROCESS_ENV]).upstreams).toMatchObject({ exerciseUrl: 'http://127.0.0.1:58600', leftoverUrl: 'http://127.0.0.1:3200' });
    expect(procs.every((p) => p.env.DATABASE_URL === undefined)).toBe(true);
  });

  it('postgres: every service connects through the proxy, credentials and database kept', () => {
    const procs = variantProcesses(loadVariant('msa-1-2'), { hop: parseHopRoute('postgres=127.0.0.1:58601') });
    const services = procs.filter((p) => p.role !== 'haproxy');
    expect(services.map((p) => p.env.DATABASE_URL)).toEqual(services.map(() => 'postgres://shellgrade:shellgrade@127.0.0.1:58601/shellgrade'));
    expect(decodeProcessConfig(services[0].env[PROCESS_ENV]).upstreams?.exerciseUrl).toBe('http://127.0.0.1:8082');
  });

  it('postgres reached through its unix socket: the routed hop goes back to TCP, through the proxy', () => {
    const local = { DATABASE_URL: 'postgres://shellgrade:pw@127.0.0.1:55432/shellgrade?host=%2Frepo%2Frun%2Fpostgres%2Fsocket', AMQP_URL: '', REDIS_URL: '' };
    expect(routedConnectionEnv(parseHopRoute('postgres=127.0.0.1:58601'), local)).toEqual({ DATABASE_URL: 'postgres://shellgrade:pw@127.0.0.1:58601/shellgrade' });
  });

  it('refuses a hop the variant does not have and a malformed route', () => {
    expect(hopRefusal(loadVariant('naked-mon'), 'exercise')).toMatch(/no exercise hop/);
    expect(hopRefusal(loadVariant('msa-grpc-1-2'), 'exercise')).toMatch(/gRPC/);
    expect(hopRefusal(loadVariant('naked-mon'), 'postgres')).toBeNull();
    expect(() => parseHopRoute('db=127.0.0.1:1')).toThrow(/hop one of exercise/);
    expect(() => parseHopRoute('exercise=127.0.0.1')).toThrow(/<hop>=<host:port>/);
  });
});
