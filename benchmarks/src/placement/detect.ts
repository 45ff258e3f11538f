// Which cpuset this machine lets the harness use, detected, never assumed: cgroup v1's `cpuset`
// hierarchy (mounted at /sys/fs/cgroup/cpuset here), else a unified (v2) hierarchy whose
// cgroup.controllers offers `cpuset` in a directory we may write (its root, or the parent of our
// own cgroup when that subtree is delegated to us). Neither: placement is unavailable, with why.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseCpuList } from './cpu-list';
import { readControl, writable } from './cgroup-files';

export interface CpusetFlavour {
  version: 1 | 2;
  /** The directory our groups are created in. */
  parent: string;
  /** Where members go back to on undo (v1: the root cpuset; v2: the hierarchy's root, or our own cgroup in a delegated subtree). */
  home: string;
  /** CPUs and memory nodes the parent may hand out. */
  cpus: number[];
  mems: string;
}

export type CpusetDetection = { available: true; flavour: CpusetFlavour } | { available: false; reason: string };


function detectV1(dir: string): CpusetDetection {
  const cpus = readControl(join(dir, 'cpuset.effective_cpus')) ?? readControl(join(dir, 'cpuset.cpus'));
  if (cpus === null) return { available: false, reason: `no cgroup v1 cpuset hierarchy at ${dir}` };
  if (!writable(dir) || !writable(join(dir, 'cgroup.procs'))) return { available: false, reason: `cgroup v1 cpuset at ${dir} is not writable by this user` };
  const mems = readControl(join(dir, 'cpuset.effective_mems')) ?? readControl(join(dir, 'cpuset.mems')) ?? '';
  return { available: true, flavour: { version: 1, parent: dir, home: dir, cpus: parseCpuList(cpus), mems } };
}

function detectV2(dir: string, home = dir): CpusetDetection {
  const controllers = readControl(join(dir, 'cgroup.controllers'));
  if (controllers === null) return { available: false, reason: `no cgroup v2 hierarchy at ${dir}` };
  if (!controllers.split(/\s+/).includes('cpuset')) return { available: false, reason: `cgroup v2 at ${dir} offers [${controllers}] without cpuset` };
  if (!writable(dir) || !writable(join(dir, 'cgroup.subtree_control'))) return { available: false, reason: `cgroup v2 at ${dir} is not writable (not delegated to this user)` };
  const cpus = readControl(join(dir, 'cpuset.cpus.effective')) ?? readControl(join(dir, 'cpuset.cpus'));
  const mems = readControl(join(dir, 'cpuset.mems.effective')) ?? readControl(join(dir, 'cpuset.mems')) ?? '';
  // The root cgroup has no cpuset.cpus.effective on some kernels: every online CPU then.
  const all = cpus ?? readControl('/sys/devices/system/cpu/online');
  if (all === null) return { available: false, reason: `cgroup v2 at ${dir}: cannot tell its CPUs` };
  return { available: true, flavour: { version: 2, parent: dir, home, cpus: parseCpuList(all), mems } };
}

/** Our own cgroup v2 path ("0::/user.slice/…" in /proc/self/cgroup), or null. */
export function ownUnifiedPath(procSelfCgroup: string): string | null {
  const m = /^0::(\/.*)$/m.exec(procSelfCgroup);
  return m ? m[1] : null;
}

/**
 * v1 first (the controller is mounted on its own), then each unified mount: its root, then the
 * parent of our own cgroup (a delegated subtree). The first usable one wins; otherwise every
 * candidate's reason, joined.
 */
export function detectCpuset(base = '/sys/fs/cgroup', procSelfCgroup = readControl('/proc/self/cgroup') ?? ''): CpusetDetection {
  const reasons: string[] = [];
  const v1 = detectV1(join(base, 'cpuset'));
  if (v1.available) return v1;
  reasons.push(v1.reason);
  const own = ownUnifiedPath(procSelfCgroup);
  for (const mount of [base, join(base, 'unified')]) {
    if (!existsSync(join(mount, 'cgroup.controllers'))) continue;
    // A delegated subtree: groups beside our own cgroup, members go back to ours (a non-root
    // cgroup with controllers enabled for its children may hold no process itself).
    const candidates: [string, string][] = [[mount, mount], ...(own && own !== '/' ? [[join(mount, dirname(own)), join(mount, own)] as [string, string]] : [])];
    for (const [dir, home] of candidates) {
      const v2 = detectV2(dir, home);
      if (v2.available) return v2;
      reasons.push(v2.reason);
    }
  }
  if (reasons.length === 1) reasons.push(`no cgroup v2 hierarchy under ${base}`);
  return { available: false, reason: reasons.join('; ') };
}
