import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { livingGroupMembers } from './ops-process-group';

it('names the living processes of a group, and none once they have ended', async () => {
  // A group of its own: a shell and the sleep it starts, said once started (the shell waits for it).
  const leader = spawn('sh', ['-c', 'sleep 30 & echo started; wait'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  await once(leader.stdout!, 'data');
  const members = livingGroupMembers(leader.pid!);
  expect(members).toContain(leader.pid);
  expect(members.length).toBe(2);
  const exited = once(leader, 'exit');
  process.kill(-leader.pid!, 'SIGKILL');
  await exited;
  // The orphaned sleep dies a moment after its leader on a busy machine, and stays a zombie here
  // (when nobody reaps it): wait until it is no longer living; counted as living, a zombie would hold this forever.
  while (livingGroupMembers(leader.pid!).length > 0) await new Promise((r) => setTimeout(r, 10));
  expect(livingGroupMembers(leader.pid!)).toEqual([]);
});
