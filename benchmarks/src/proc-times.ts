// What the sampler reads of each process from /proc/<pid>/stat: its parent, the CPU time it spent
// itself plus the time of its children it has already reaped, and its resident pages. The graders
// are short-lived children (python under bwrap, ~50 ms each) that a 1 s sampler never sees alive;
// their time reaches the parent's cutime/cstime when reaped, which only /proc/<pid>/stat tells.
// One read per process per tick, and no `ps` spawned: the sampler's own cost is counted against
// the client side (the harness group), so it is kept small.
import { readdir, readFile } from 'node:fs/promises';

export interface ProcTimes {
  ownTicks: number;
  reapedChildrenTicks: number;
}

export interface ProcStat extends ProcTimes {
  pid: number;
  ppid: number;
  rssPages: number;
}

/** Parses /proc/<pid>/stat: the pid, then the fields after "(comm)"; comm may hold spaces and ')'. */
export function parseProcStat(text: string): ProcStat {
  const pid = Number(text.slice(0, text.indexOf(' ')));
  const rest = text.slice(text.lastIndexOf(')') + 2).trim().split(/\s+/);
  // rest[0] is field 3 (state): ppid=4, utime=14, stime=15, cutime=16, cstime=17, rss=24.
  const n = (field: number): number => Number(rest[field - 3]);
  return { pid, ppid: n(4), ownTicks: n(14) + n(15), reapedChildrenTicks: n(16) + n(17), rssPages: n(24) };
}

/** Every process of the machine, one /proc/<pid>/stat read each (those gone meanwhile are left out). */
export async function procTable(): Promise<ProcStat[]> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const stats = await Promise.all(
    pids.map((pid) =>
      readFile(`/proc/${pid}/stat`, 'utf8').then(
        (text) => parseProcStat(text),
        () => null, // exited between listing and reading
      ),
    ),
  );
  return stats.filter((s): s is ProcStat => s !== null);
}
