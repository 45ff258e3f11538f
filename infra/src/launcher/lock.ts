/**
 * The launcher's two machine-wide locks (PidLock, libs/pid-lock):
 * - `variant`: one launcher at a time changes the running variant;
 * - `harness`: one measurement at a time on this machine — a second benchmark, from a shell or
 *   from the console, would load the same two cores and spoil both (so runs queue behind the
 *   harness's lock). Held across a whole command (a findings run, a calibration), re-entrant
 *   within the process that holds it.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PidLock } from '@shellgrade/pid-lock';
import { RUN_DIR } from '../paths';

export { LockBusyError, PidLock, type LockHolder, type LockWait } from '@shellgrade/pid-lock';

const VARIANT_LOCK = new PidLock('variant', join(RUN_DIR, 'locks'));

export function withVariantLock<T>(work: () => Promise<T>, waitMs = 15 * 60_000): Promise<T> {
  return VARIANT_LOCK.with(`variant launcher (pid ${process.pid})`, work, { waitMs, onWait: () => process.stderr.write('[variant] waiting for another launcher to finish...\n') });
}

/**
 * The one measurement at a time on this machine: in the machine's temporary directory, not the
 * repository's run/, so two clones (a CI check beside a working copy) see each other.
 */
export const HARNESS_LOCK = new PidLock('harness', join(tmpdir(), 'shellgrade-locks'));
