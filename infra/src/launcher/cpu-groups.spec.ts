import { withCpuGroups } from './cpu-groups';
import type { Ecosystem, Pm2App } from './ecosystem';

const app = (name: string): Pm2App =>
  ({ name, script: 'x', cwd: '/', env: { NODE_ENV: 'production' }, autorestart: true, restart_delay: 0, max_restarts: 0, min_uptime: 0, kill_timeout: 0, out_file: '', error_file: '', merge_logs: true, time: true }) as Pm2App;

describe('withCpuGroups (scale-model testbed)', () => {
  const eco: Ecosystem = { apps: [app('sg-monolith-0'), app('sg-haproxy')] };

  it('tells each process its cpu group under the root, keeping its environment', () => {
    expect(withCpuGroups(eco, '/sg-scale/').apps.map((a) => a.env)).toEqual([
      { NODE_ENV: 'production', SG_CPU_CGROUP: '/sg-scale/sg-monolith-0' },
      { NODE_ENV: 'production', SG_CPU_CGROUP: '/sg-scale/sg-haproxy' },
    ]);
  });

  it('changes nothing without a root (the unscaled testbed)', () => {
    expect(withCpuGroups(eco, undefined)).toBe(eco);
  });
});
