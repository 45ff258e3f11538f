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
  expect(livingGroupMembers(leader.pid!)).toEqual([]);
});
