// A harness in miniature for the undo-on-interruption test: applies the SIGSTOP fault to the pid
// it is given, journaled under <dir>, with a hold that never ends, prints "injected" once the
// fault is in effect, and waits to be interrupted (SIGINT, SIGTERM or SIGKILL by the test).
import { readFileSync } from 'node:fs';
import { applyFault } from '../../src/faults/guard';
import { UndoJournal } from '../../src/faults/journal';

const [dir, pidText] = process.argv.slice(2);
const pid = Number(pidText);
const never = () => new Promise<void>(() => setInterval(() => undefined, 60_000));

/** SIGSTOP takes effect when the target is next scheduled, not when kill returns: wait for state T. */
async function stopped(target: number): Promise<void> {
  const state = () => {
    const stat = readFileSync(`/proc/${target}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  };
  while (state() !== 'T') await new Promise((r) => setTimeout(r, 5));
}

void applyFault(
  { fault: 'sigstop-one:test', target: `sleep (pid ${pid})`, undo: { kind: 'continue', pid }, inject: async () => {
    process.kill(pid, 'SIGSTOP');
    await stopped(pid);
  } },
  new UndoJournal(dir),
  0,
  async () => {
    process.stdout.write('injected\n');
    await never();
  },
);
