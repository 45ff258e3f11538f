/**
 * Where a zygote grading's CPU goes, by the processes of one job: the perf samples of a
 * grader-only loop, each given to the role its process plays in the job's process tree. The tree
 * comes from the fork and comm records perf keeps anyway (`perf script --show-task-events`), so
 * nothing else is recorded.
 *
 * Roles, from the zygote down (shellgrade_grader/zygote.py, supervise.py, native/student-supervisor.c):
 *   zygote — the long-lived interpreter (its share: cloning jobs);
 *   job (grader) — the clone that renames itself grade-<locale>: mounts, inputs, then grader.py as uid 65534;
 *   student supervisor — the job's first child (sandbox-exec --supervise): serving run_script;
 *   teacher scripts — the job's later children: what the grader starts itself (run_script(teacher_material=True));
 *   student sandbox (sandbox-exec) — the supervisor's children: each student script's PID 1;
 *   student scripts — what a student sandbox starts.
 * Pure: unit-tested on a recorded excerpt.
 */

export const ZYGOTE_ROLES = ['zygote', 'job (grader)', 'student supervisor', 'teacher scripts', 'student sandbox (sandbox-exec)', 'student scripts'] as const;
export type ZygoteRole = (typeof ZYGOTE_ROLES)[number];

export interface RoleCosts {
  /** Jobs cloned inside the window. */
  jobs: number;
  /** CPU ms per job of each role, in ZYGOTE_ROLES order. */
  msPerJob: Record<ZygoteRole, number>;
}

interface TaskLine {
  pid: number;
  rest: string;
}

const LINE = /^\s*.+?\s+(\d+)\/\d+\s+(.*)$/;
const FORK = /PERF_RECORD_FORK\((\d+):(\d+)\):\((\d+):\d+\)/;
const RENAME = /PERF_RECORD_COMM: (\S+?):(\d+)\/\d+/;

function parse(text: string): TaskLine[] {
  return text.split('\n').flatMap((line) => {
    const m = LINE.exec(line);
    return m ? [{ pid: Number(m[1]), rest: m[2] }] : [];
  });
}

/** `perf script --show-task-events -F comm,pid,tid,event` of a window sampled at `msPerSample`. */
export function costByZygoteRole(script: string, msPerSample: number): RoleCosts {
  const lines = parse(script);
  // A job is a process that renamed itself (prctl, not exec) to grade-<locale>; its parent is the zygote.
  const jobs = new Set(lines.flatMap((l) => {
    const m = RENAME.exec(l.rest);
    return m && /^grade-/.test(m[1]) && !l.rest.includes('COMM exec') ? [Number(m[2])] : [];
  }));
  const role = new Map<number, ZygoteRole>();
  const childrenOf = new Map<number, number>();
  const samples = new Map<ZygoteRole, number>();
  for (const l of lines) {
    const fork = FORK.exec(l.rest);
    if (fork) {
      const [child, thread, parent] = [Number(fork[1]), Number(fork[2]), Number(fork[3])];
      if (child !== thread || child === parent) continue; // a thread, not a process
      const seen = childrenOf.get(parent) ?? 0;
      childrenOf.set(parent, seen + 1);
      const r = childRole(role.get(parent), seen, jobs.has(child));
      if (jobs.has(child)) role.set(parent, 'zygote');
      if (r) role.set(child, r);
      continue;
    }
    if (!l.rest.startsWith('cpu-clock')) continue;
    const r = role.get(l.pid);
    if (r) samples.set(r, (samples.get(r) ?? 0) + 1);
  }
  const jobCount = [...role.values()].filter((r) => r === 'job (grader)').length;
  const msPerJob = Object.fromEntries(
    ZYGOTE_ROLES.map((r) => [r, jobCount ? Math.round(((samples.get(r) ?? 0) * msPerSample * 100) / jobCount) / 100 : 0]),
  ) as Record<ZygoteRole, number>;
  return { jobs: jobCount, msPerJob };
}

function childRole(parent: ZygoteRole | undefined, earlierChildren: number, isJob: boolean): ZygoteRole | undefined {
  if (isJob) return 'job (grader)';
  switch (parent) {
    case 'job (grader)':
      return earlierChildren === 0 ? 'student supervisor' : 'teacher scripts';
    case 'student supervisor':
      return 'student sandbox (sandbox-exec)';
    case 'teacher scripts':
      return 'teacher scripts';
    case 'student sandbox (sandbox-exec)':
    case 'student scripts':
      return 'student scripts';
    default:
      return undefined;
  }
}
