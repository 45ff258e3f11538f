/**
 * Placement on real processes (needs root and a cpuset hierarchy: cgroup v1 here; skipped, and
 * saying so, elsewhere). A system under test made of a `sleep`, a shell that has a child before
 * placement and forks more after it — a bubblewrap sandbox among them when bwrap is installed —
 * and a client shell that forks after placement: the kernel's Cpus_allowed_list must keep every
 * process of the system, born before or after, off the client's CPUs and the client off the
 * system's; undo puts all of them back on every CPU and removes the groups, also when the harness
 * is interrupted (SIGINT). Waits are on events (a line printed, a process seen), never on time.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { procTable } from '../../src/proc-times';
import { descendantsOf } from '../../src/resource-sampler';
import { allowedCpus } from '../../src/placement/allowed';
import { detectCpuset, type CpusetFlavour } from '../../src/placement/detect';
import { planPlacement } from '../../src/placement/plan';
import { PlacementSession } from '../../src/placement/session';

const detection = detectCpuset();
const usable = detection.available && detection.flavour.cpus.length >= 2 && process.getuid?.() === 0;
const flavour = (detection as { flavour?: CpusetFlavour }).flavour!;
const hasBwrap = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-pid', '--dev', '/dev', '--proc', '/proc', 'true']).status === 0;

/** A process that prints a line per event; `next()` resolves with the next line. */
function startLines(cmd: string, args: string[]): { child: ChildProcess; next: () => Promise<string>; say: (s: string) => void } {
  const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'], detached: true });
  const lines: string[] = [];
  const waiters: ((l: string) => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', (l) => (waiters.length ? waiters.shift()!(l) : lines.push(l)));
  return {
    child,
    next: () => (lines.length ? Promise.resolve(lines.shift()!) : new Promise((r) => waiters.push(r))),
    say: (s) => child.stdin!.write(s + '\n'),
  };
}

async function tree(root: number): Promise<number[]> {
  const table = await procTable();
  return descendantsOf(root, table).filter((pid) => table.some((p) => p.pid === pid));
}

const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) {
    if (c.exitCode !== null || c.signalCode !== null) continue;
    const gone = once(c, 'exit');
    try {
      process.kill(-c.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
    await gone;
  }
});

if (usable) describe(`placement on real processes (cgroup v${flavour?.version ?? '?'})`, () => {
  it('keeps every process of the system under test, children born later and sandboxes included, off the client CPUs, the client off the system CPUs, and undo restores all', async () => {
    const plan = planPlacement({}, { profileName: 'stress', suiteKind: 'stress' }, detection);
    expect(plan.state).toBe('on');
    const { clientCpus, sutCpus } = plan;

    // Started before placement: a plain sleep, and a shell with a child of its own.
    const sleeper = spawn('sleep', ['600'], { stdio: 'ignore', detached: true });
    const forker = startLines('sh', ['-c', `sleep 600 & echo early; while read cmd; do sh -c "$cmd" & echo started; done`]);
    const client = startLines('sh', ['-c', 'read x; sleep 600 & echo forked; wait']);
    children.push(sleeper, forker.child, client.child);
    expect(await forker.next()).toBe('early');

    const session = new PlacementSession(plan, flavour, `int-${process.pid}`);
    try {
      await session.placeSut([sleeper.pid!, forker.child.pid!]);
      session.placeClient([client.child.pid!]);

      // Born after placement: a plain child, and a bubblewrap sandbox (new pid namespace) running a shell and its child.
      forker.say('exec sleep 601');
      expect(await forker.next()).toBe('started');
      if (hasBwrap) {
        forker.say('exec bwrap --ro-bind / / --dev /dev --proc /proc --unshare-pid --die-with-parent sh -c "sleep 602 & echo sandboxed; wait"');
        expect(await forker.next()).toBe('started');
        expect(await forker.next()).toBe('sandboxed');
      }
      client.say('go');
      expect(await client.next()).toBe('forked');

      const sut = [...(await tree(sleeper.pid!)), ...(await tree(forker.child.pid!))];
      const clientPids = await tree(client.child.pid!);
      // sleeper; forker + early sleep + the shell and sleep it started later; bwrap's processes.
      expect(sut.length).toBeGreaterThanOrEqual(hasBwrap ? 7 : 5);
      expect(clientPids.length).toBe(2);
      const allowed = Object.fromEntries([...sut, ...clientPids].map((pid) => [pid, allowedCpus(pid)]));
      for (const pid of sut) expect({ pid, cpus: allowed[pid] }).toEqual({ pid, cpus: sutCpus });
      for (const pid of clientPids) expect({ pid, cpus: allowed[pid] }).toEqual({ pid, cpus: clientCpus });
      expect(await session.trespassers([sleeper.pid!, forker.child.pid!])).toEqual([]);
      expect(session.clientTrespassers(clientPids)).toEqual([]);
      process.stderr.write(`placement figure: system under test ${sut.map((p) => `${p}:${allowed[p]!.join(',')}`).join(' ')} | client ${clientPids.map((p) => `${p}:${allowed[p]!.join(',')}`).join(' ')}\n`);
    } finally {
      session.undo();
    }
    const everyone = [...(await tree(sleeper.pid!)), ...(await tree(forker.child.pid!)), ...(await tree(client.child.pid!))];
    for (const pid of everyone) expect({ pid, cpus: allowedCpus(pid) }).toEqual({ pid, cpus: flavour.cpus });
    expect(existsSync(session.dir)).toBe(false);
  });

  it('undoes on SIGINT: a harness interrupted mid-test leaves no group and no process confined', async () => {
    // A separate node process plays the harness (TypeScript compiled on the fly by @swc/core, as Jest does).
    const src = join(__dirname, '..', '..', 'src', 'placement');
    const script = `
      const Module = require('module'); const swc = require('@swc/core');
      Module._extensions['.ts'] = (m, f) => m._compile(swc.transformFileSync(f, { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }).code, f);
      const { detectCpuset } = require(${JSON.stringify(join(src, 'detect.ts'))});
      const { planPlacement } = require(${JSON.stringify(join(src, 'plan.ts'))});
      const { PlacementSession } = require(${JSON.stringify(join(src, 'session.ts'))});
      const d = detectCpuset();
      const s = new PlacementSession(planPlacement({}, { profileName: 'stress', suiteKind: 'stress' }, d), d.flavour);
      s.placeSut([Number(process.argv[1])]).then(() => { s.placeClient(); console.log(s.dir); setInterval(() => {}, 1 << 30); });
    `;
    const victim = spawn('sleep', ['600'], { stdio: 'ignore', detached: true });
    children.push(victim);
    const harness = startLines(process.execPath, ['-e', script, String(victim.pid)]);
    children.push(harness.child);
    const dir = await harness.next();
    expect(existsSync(dir)).toBe(true);
    const plan = planPlacement({}, { profileName: 'stress', suiteKind: 'stress' }, detection);
    expect(allowedCpus(victim.pid!)).toEqual(plan.sutCpus);
    expect(allowedCpus(harness.child.pid!)).toEqual(plan.clientCpus);
    const exited = once(harness.child, 'exit');
    harness.child.kill('SIGINT');
    const [, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    expect(signal).toBe('SIGINT');
    expect(existsSync(dir)).toBe(false);
    expect(allowedCpus(victim.pid!)).toEqual(flavour.cpus);
  });
});
else it(`placement is unavailable here: ${detection.available ? 'needs root and 2 CPUs' : detection.reason}`, () => undefined);
