/**
 * The launcher as a library, for tools that drive variants from their own process (the bench
 * harness): the same up / down / status as `npm run variant`, without a CLI run per call
 * (npm, Node and pm2 started again: about a second each, several times per benchmark run).
 * Each call holds pm2's connection only while it runs.
 */
import { down, runsAlready, status, up, type UpOptions, type VariantStatus } from './launcher';
import { remove, withConnection } from './pm2';

export type { ProcessStatus, UpOptions, VariantStatus } from './launcher';

/** `variant up`: switches to the variant (a no-op when it is up and healthy) and returns its status. */
export function launchVariant(nameOrPath: string, options: UpOptions = {}): Promise<VariantStatus> {
  return withConnection(() => up(nameOrPath, options));
}

/** Whether `launchVariant(nameOrPath, options)` would find exactly that spec up and healthy (launcher.ts runsAlready). */
export function variantRunsAlready(nameOrPath: string, options: UpOptions = {}): Promise<boolean> {
  return withConnection(() => runsAlready(nameOrPath, options));
}

/** `variant down`: stops the variant's processes (the native servers stay). */
export function stopVariant(): Promise<string[]> {
  return withConnection(() => down());
}

/** `variant status --json`: the launcher's record of the active variant, with pm2's view of each process. */
export function variantStatus(): Promise<VariantStatus> {
  return withConnection(() => status());
}

export { HARNESS_LOCK, LockBusyError, PidLock, type LockHolder, type LockWait } from './lock';

/** Takes one process of the variant away (pm2 no longer restarts it); the next `launchVariant` brings it back. */
export function removeVariantProcess(name: string): Promise<void> {
  return withConnection(() => remove(name));
}
