// CPU starvation of one replica (the grading side: exercise, monolith): stress-ng CPU hogs, one per
// CPU the replica may run on, joined to its cpu and cpuset control groups before they start, so
// they compete for exactly what the replica and its graders compete for. Bounded twice: the
// fault's undo kills the group, and stress-ng's own --timeout ends it should the harness die.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatCpuList, parseCpusAllowed } from '../placement/cpu-list';
import { FAULT_TAG_ENV } from './undo';

/** cgroup v1 controller (or '' for v2) → path, from /proc/<pid>/cgroup. */
export function cgroupPaths(procCgroup: string): Map<string, string> {
  const paths = new Map<string, string>();
  for (const line of procCgroup.split('\n').filter(Boolean)) {
    const [, controllers, path] = line.split(':');
    for (const c of controllers.split(',')) paths.set(c, path);
  }
  return paths;
}

/** The cgroup.procs files a process joining `pid`'s CPU groups writes itself to (none at the root). */
export function cpuGroupProcs(pid: number, mount = '/sys/fs/cgroup'): string[] {
  const paths = cgroupPaths(readFileSync(`/proc/${pid}/cgroup`, 'utf8'));
  const files: string[] = [];
  for (const c of ['cpu', 'cpuset']) {
    const path = paths.get(c);
    if (path && path !== '/') files.push(join(mount, c, path, 'cgroup.procs'));
  }
  const unified = paths.get('');
  if (files.length === 0 && unified && unified !== '/' && existsSync(join(mount, 'cgroup.controllers'))) files.push(join(mount, unified, 'cgroup.procs'));
  return files;
}

export function allowedCpus(pid: number): number[] {
  const cpus = parseCpusAllowed(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!cpus?.length) throw new Error(`no Cpus_allowed_list for pid ${pid}`);
  return cpus;
}

/** Starts the hogs beside `pid`, tagged (undo.ts kill-tagged finds them by the tag). */
export function startCpuHogs(pid: number, timeoutS: number, tag: string): { cpus: string } {
  const cpus = formatCpuList(allowedCpus(pid));
  const joins = cpuGroupProcs(pid).map((f) => `echo $$ > '${f}'`).join(' && ');
  const hogs = allowedCpus(pid).length;
  const script = `${joins ? `${joins} && ` : ''}exec taskset -c '${cpus}' stress-ng --cpu ${hogs} --cpu-load 100 --timeout ${Math.ceil(timeoutS)}s --quiet`;
  const child = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore', env: { ...process.env, [FAULT_TAG_ENV]: tag } });
  child.unref();
  return { cpus };
}
