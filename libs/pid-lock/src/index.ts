export { LockBusyError, PidLock, type LockHolder, type LockWait } from './pid-lock';
