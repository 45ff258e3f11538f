/**
 * The living members of a process group, read from /proc (Linux). A killed process stays a
 * zombie until its parent reaps it — and an orphan's new parent may never do so in a container
 * whose init does not reap — so "kill(-pgid, 0) succeeds" does not mean anything still runs.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Pids in process group `pgid` that are not zombies. */
export function livingGroupMembers(pgid: number): number[] {
  const living: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so read after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') living.push(Number(entry));
  }
  return living;
}
