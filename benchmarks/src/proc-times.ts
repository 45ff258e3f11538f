// CPU time a process spent itself plus the time of its children it has already reaped.
// pidusage reports only the former; the graders are short-lived children (python under
// bwrap, ~50 ms each) that a 1 s sampler never sees alive, so their cost would vanish.
// Their time reaches the parent's cutime/cstime when reaped, which only /proc/<pid>/stat tells.
import { readFile } from 'node:fs/promises';

export interface ProcTimes {
  ownTicks: number;
  reapedChildrenTicks: number;
}

/** Parses the fields after "pid (comm)" of /proc/<pid>/stat; comm may hold spaces and ')'. */
export function parseProcStat(text: string): ProcTimes {
  const rest = text.slice(text.lastIndexOf(')') + 2).trim().split(/\s+/);
  // rest[0] is field 3 (state): utime=14, stime=15, cutime=16, cstime=17 -> rest[11..14].
  const n = (i: number): number => Number(rest[i]);
  return { ownTicks: n(11) + n(12), reapedChildrenTicks: n(13) + n(14) };
}

export async function procTimes(pid: number): Promise<ProcTimes | null> {
  try {
    return parseProcStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null; // exited between listing and reading
  }
}
