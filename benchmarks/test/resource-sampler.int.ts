/**
 * The 1 s sampler against real processes (/proc, no cgroups): a group is a pid and all its
 * descendants, its CPU counts the work they did between two samples, its PSS is read when the
 * group is first seen and carried between PSS reads, and the harness (this process) is a group of
 * its own so that "machine minus client" can leave it out. Ticks are driven by mark(), not timers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { detectCgroup } from '../src/cgroup-cpu';
import { HARNESS_GROUP, MACHINE_GROUP, ResourceSampler } from '../src/resource-sampler';

/** sh → node: the node grandchild burns a fixed amount of CPU when told to, says "done", then idles until killed. */
function startBurner(): { shell: ChildProcess; done: Promise<void>; burn: () => void } {
  const script = `process.stdin.once('data', () => { let x = 0; for (let i = 0; i < 3e8; i++) x += i % 7; console.log('done', x); }); setInterval(() => {}, 1 << 30);`;
  const shell = spawn('sh', ['-c', `node -e "${script}"`], { stdio: ['pipe', 'pipe', 'inherit'], detached: true });
  const done = new Promise<void>((resolve) => shell.stdout!.on('data', (b: Buffer) => b.toString().includes('done') && resolve()));
  return { shell, done, burn: () => shell.stdin!.write('go\n') };
}

describe('ResourceSampler (real processes, /proc accounting)', () => {
  let burner: ReturnType<typeof startBurner>;
  afterEach(async () => {
    if (burner.shell.exitCode === null) {
      const exited = once(burner.shell, 'exit');
      process.kill(-burner.shell.pid!, 'SIGKILL');
      await exited;
    }
  });

  it("counts a group's descendants and the CPU they spent between samples, keeps PSS between reads, and samples the harness apart", async () => {
    burner = startBurner();
    // Wait until the grandchild exists (sh has forked node): its pid shows in /proc with sh as parent.
    const sampler = new ResourceSampler(() => [{ name: 'burner', role: 'service', pid: burner.shell.pid! }], false);
    let pids = 0;
    while (pids < 2) {
      await sampler.mark(1);
      pids = sampler.samples.filter((s) => s.group === 'burner').at(-1)?.pids ?? 0;
      if (pids < 2) await new Promise((r) => setImmediate(r));
    }
    burner.burn();
    await burner.done;
    await sampler.mark(1);
    const samples = await sampler.stop();

    const mine = samples.filter((s) => s.group === 'burner');
    expect(mine.at(-1)!.pids).toBe(2);
    expect(mine.at(-1)!.cpuS).toBeGreaterThan(0.05);
    // PSS is read on the first tick and then every few ticks; the ticks in between carry the last figure.
    expect(mine.length).toBeGreaterThanOrEqual(3);
    expect(mine.every((s) => s.pssBytes > 0)).toBe(true);
    const harness = samples.filter((s) => s.group === HARNESS_GROUP);
    expect(harness.length).toBe(mine.length);
    expect(harness.every((s) => s.role === 'harness' && s.pids === 1)).toBe(true);
    expect(samples.some((s) => s.group === MACHINE_GROUP && s.role === 'machine')).toBe(true);
  });
});

/** A node child that answers HTTP on loopback, and this process asking it `n` times (loopback traffic: softirq as well as user time). */
async function loopbackTraffic(n: number): Promise<ChildProcess> {
  const server = spawn(process.execPath, ['-e', `require('http').createServer((q, r) => r.end('x'.repeat(4096))).listen(0, '127.0.0.1', function () { console.log(this.address().port); });`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(server.stdout!, 'data')) as [Buffer];
  const port = Number(line.toString().trim());
  for (let i = 0; i < n; i++) {
    await new Promise<void>((resolve, reject) => request({ host: '127.0.0.1', port }, (res) => res.resume().on('end', resolve)).on('error', reject).end());
  }
  return server;
}

describe('ResourceSampler (real processes, cgroup accounting)', () => {
  it("reads the machine from the root cgroup, the groups' own counter, so the groups never add up to more than the machine", async () => {
    // This machine has cgroup CPU accounting (cgroup v1 cpuacct here): without it this test has nothing to check, and says so.
    expect(detectCgroup()).not.toBeNull();
    let server: ChildProcess | null = null;
    const sampler = new ResourceSampler(() => (server ? [{ name: 'server', role: 'service', pid: server.pid! }] : []));
    expect(sampler.machineCpuAccounting).toMatch(/^cgroup v[12] root/);
    await sampler.mark(1);
    server = await loopbackTraffic(3000);
    await sampler.mark(1);
    await loopbackTraffic(3000).then((second) => second.kill('SIGKILL'));
    await sampler.mark(1);
    server.kill('SIGKILL');
    const samples = await sampler.stop();
    const last = (group: string) => samples.filter((s) => s.group === group).at(-1)!;
    expect(last(MACHINE_GROUP).cpuSource).toBe('cgroup');
    expect(last('server').cpuSource).toBe('cgroup');
    expect(last('server').cpuS).toBeGreaterThan(0);
    // The machine's counter started before the server's group did: it holds the server and this process.
    expect(last(MACHINE_GROUP).cpuS).toBeGreaterThanOrEqual(last('server').cpuS + last(HARNESS_GROUP).cpuS);
  });
});
