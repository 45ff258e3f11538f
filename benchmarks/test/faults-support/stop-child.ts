// A harness in miniature for the undo-on-interruption test: applies the SIGSTOP fault to the pid
// it is given, journaled under <dir>, with a hold that never ends, prints "injected" once the
// fault is in effect, and waits to be interrupted (SIGINT, SIGTERM or SIGKILL by the test).
import { applyFault } from '../../src/faults/guard';
import { UndoJournal } from '../../src/faults/journal';

const [dir, pidText] = process.argv.slice(2);
const pid = Number(pidText);
const never = () => new Promise<void>(() => setInterval(() => undefined, 60_000));

void applyFault(
  { fault: 'sigstop-one:test', target: `sleep (pid ${pid})`, undo: { kind: 'continue', pid }, inject: async () => void process.kill(pid, 'SIGSTOP') },
  new UndoJournal(dir),
  0,
  async () => {
    process.stdout.write('injected\n');
    await never();
  },
);
