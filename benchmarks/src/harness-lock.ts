// One measurement at a time on this machine (two would measure each other): every command that loads the system —
// a test, a calibration, a findings run, a fault matrix, a sweep, a mix — holds the harness lock
// (@shellgrade/launcher PidLock, machine-wide) for its whole length. A second one, from a shell
// or launched from the console, waits its turn and says for whom; SG_HARNESS_WAIT_S bounds the
// wait (0: refuse at once, naming the run going on).
import { HARNESS_LOCK, type LockHolder } from '@shellgrade/launcher';
import { phase } from './log';

const DAY_S = 24 * 3600;

export function harnessWaitS(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SG_HARNESS_WAIT_S;
  if (raw === undefined || raw === '') return DAY_S;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`SG_HARNESS_WAIT_S must be a number of seconds >= 0, got "${raw}"`);
  return n;
}

const waiting = (h: LockHolder | null): void =>
  phase(`waiting for the machine: ${h ? `pid ${h.pid} is measuring (${h.what}, since ${h.since})` : 'another measurement is starting'} — one measurement at a time`);

/** Runs `work` holding the harness lock (re-entrant: a findings run's tests run inside its hold). */
export function exclusive<T>(what: string, work: () => Promise<T>): Promise<T> {
  return HARNESS_LOCK.with(what, work, { waitMs: harnessWaitS() * 1000, onWait: waiting });
}
