// A native server that dies during a run is named as such, not only seen as KOs: the
// crash watch follows the variant's servers' pids beside its processes. Real processes stand in
// for both (a `sleep` each); an exit is awaited as an event.
import { spawn, type ChildProcess } from 'node:child_process';
import { CrashWatch } from '../src/crash-watch';

const exited = (c: ChildProcess) => new Promise<void>((r) => c.once('exit', () => r()));

describe('crash watch', () => {
  const children: ChildProcess[] = [];
  const sleeper = () => {
    const c = spawn('sleep', ['600'], { stdio: 'ignore' });
    children.push(c);
    return c;
  };
  afterAll(() => children.forEach((c) => c.kill('SIGKILL')));

  it('names a dead native server as a native server, a dead process as a process, and not the living', async () => {
    const pg = sleeper();
    const app = sleeper();
    const redis = sleeper();
    const seen: string[] = [];
    const watch = new CrashWatch((e) => seen.push(e.process));
    watch.follow({
      variant: 'naked-mon',
      processes: [{ name: 'sg-monolith-1', role: 'monolith', pid: app.pid! }],
      servers: [
        { name: 'postgres', pid: pg.pid! },
        { name: 'redis', pid: redis.pid! },
      ],
    });
    const gone = Promise.all([exited(pg), exited(app)]);
    pg.kill('SIGKILL');
    app.kill('SIGKILL');
    await gone;
    const events = watch.stop();
    expect(events.map(({ process, kind, pid }) => ({ process, kind, pid })).sort((a, b) => a.process.localeCompare(b.process))).toEqual([
      { process: 'native server postgres', kind: 'native-server', pid: pg.pid },
      { process: 'sg-monolith-1', kind: 'process', pid: app.pid },
    ]);
    expect(seen.sort()).toEqual(['native server postgres', 'sg-monolith-1']);
  });
});
