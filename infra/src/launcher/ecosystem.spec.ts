import { loadVariant } from '@shellgrade/variant';
import { ecosystem, ecosystemSource } from './ecosystem';
import { decodeProcessConfig } from '@shellgrade/variant';

describe('pm2 ecosystem', () => {
  const options = { haproxyConfig: '/repo/run/variant/haproxy.cfg', jwtSecret: 'generated-per-installation-0123456789abcdef' };

  it('msa-2-4-4: one app per replica plus HAProxy, restarted on crash, logs under run/logs', () => {
    const { apps } = ecosystem(loadVariant('msa-2-4-4'), options);
    expect(apps.map((a) => a.name)).toEqual([
      'sg-leftover-0', 'sg-leftover-1', 'sg-leftover-2', 'sg-leftover-3',
      'sg-exercise-0', 'sg-exercise-1', 'sg-exercise-2', 'sg-exercise-3',
      'sg-gateway-0', 'sg-gateway-1', 'sg-haproxy',
    ]);
    for (const app of apps) {
      expect(app).toMatchObject({ autorestart: true, max_restarts: 10_000 });
      expect(app.restart_delay).toBeLessThanOrEqual(1000);
      expect(app.kill_timeout).toBeGreaterThan(0);
      expect(app.out_file).toMatch(new RegExp(`/run/logs/${app.name}\\.out\\.log$`));
    }
    const exercise = apps[5];
    expect(exercise.script).toMatch(/\/dist\/services\/exercise\/src\/main\.js$/);
    expect(exercise.node_args).toContain('--max-old-space-size=512');
    // No memory reducer, a larger young generation: the idle-time GC of low rates (service-node-flags.ts).
    for (const app of apps.filter((a) => a.name !== 'sg-haproxy')) expect(app.node_args).toEqual(expect.arrayContaining(['--no-memory-reducer', '--max-semi-space-size=16']));
    expect(decodeProcessConfig(exercise.env.SG_PROCESS)).toMatchObject({ role: 'exercise', replica: 1, port: 3301 });
    const haproxy = apps[10];
    expect(haproxy).toMatchObject({ script: '/usr/sbin/haproxy', interpreter: 'none', args: ['-db', '-f', options.haproxyConfig] });
  });

  it('every service replica signs tokens with the installation secret, never a default', () => {
    const apps = ecosystem(loadVariant('msa-2-4-4'), options).apps.filter((a) => a.name !== 'sg-haproxy');
    expect(apps.map((a) => a.env.SG_JWT_SECRET)).toEqual(apps.map(() => options.jwtSecret));
    expect(ecosystemSource(loadVariant('msa-2-4-4'), options)).not.toContain('shellgrade-dev-secret');
  });

  it('--cpu-prof: every service writes V8 CPU profiles into a folder of its own; unprofiled by default', () => {
    const profiled = ecosystem(loadVariant('msa-1-2'), { ...options, cpuProfileDir: '/repo/results/r/profiles' }).apps;
    const services = profiled.filter((a) => a.name !== 'sg-haproxy');
    for (const app of services) expect(app.node_args).toEqual(expect.arrayContaining(['--cpu-prof', `--cpu-prof-dir=/repo/results/r/profiles/${app.name}`]));
    for (const app of ecosystem(loadVariant('msa-1-2'), options).apps) expect(app.node_args ?? []).not.toContain('--cpu-prof');
  });

  it("service replicas run without pm2's in-process metrics agent (its per-second work is idle CPU per iteration)", () => {
    const services = ecosystem(loadVariant('msa-1-2'), options).apps.filter((a) => a.name !== 'sg-haproxy');
    expect(services.length).toBeGreaterThan(0);
    for (const app of services) expect(app.pmx).toBe(false);
    expect(ecosystemSource(loadVariant('msa-1-2'), options)).toContain('"pmx": false');
  });

  it('naked-mon has no HAProxy app', () => {
    expect(ecosystem(loadVariant('naked-mon'), options).apps.map((a) => a.name)).toEqual(['sg-monolith-0']);
  });

  it('is a loadable CommonJS module', () => {
    const source = ecosystemSource(loadVariant('mon-x2'), options);
    const module = { exports: {} as { apps?: unknown[] } };
    new Function('module', source)(module);
    expect(module.exports.apps).toHaveLength(3);
  });
});
