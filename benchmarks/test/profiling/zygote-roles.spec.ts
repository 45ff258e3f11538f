/** perf task events + samples → CPU per job by the role of each process (zygote-roles.ts). */
import { costByZygoteRole } from '../../src/profiling/zygote-roles';

// `perf script --show-task-events -F comm,pid,tid,event`, shaped as recorded here: perf's synthetic
// records of processes alive at the start, then one job (clone 538 of the zygote 384, renamed
// grade-en, the grader) with its student supervisor 539, which starts a student sandbox 540 and
// its script 541; the job's later child 542 is a teacher script; a node thread and a sampled
// process of no job around them.
const JOB = `
         python3     0/0     PERF_RECORD_COMM: python3:384/384
        grade-en     0/0     PERF_RECORD_COMM: grade-en:523/523
         python3   384/384   PERF_RECORD_FORK(538:538):(384:384)
        grade-en   538/538   PERF_RECORD_COMM: grade-en:538/538
        grade-en   538/538   cpu-clock:pppH: 
        grade-en   538/538   cpu-clock:pppH: 
         python3   384/384   cpu-clock:pppH: 
        grade-en   538/538   PERF_RECORD_FORK(539:539):(538:538)
    sandbox-exec   539/539   PERF_RECORD_COMM exec: sandbox-exec:539/539
    sandbox-exec   539/539   cpu-clock:pppH: 
    sandbox-exec   539/539   PERF_RECORD_FORK(540:540):(539:539)
    sandbox-exec   540/540   cpu-clock:pppH: 
    sandbox-exec   540/540   PERF_RECORD_FORK(541:541):(540:540)
              sh   541/541   PERF_RECORD_COMM exec: sh:541/541
              sh   541/541   cpu-clock:pppH: 
              sh   541/541   cpu-clock:pppH: 
        grade-en   538/538   cpu-clock:pppH: 
        grade-en   538/538   PERF_RECORD_FORK(542:542):(538:538)
              sh   542/542   PERF_RECORD_COMM exec: sh:542/542
              sh   542/542   cpu-clock:pppH: 
            node   323/323   PERF_RECORD_FORK(323:330):(323:323)
            node   323/330   cpu-clock:pppH: 
        grade-en   523/523   cpu-clock:pppH: 
`;

describe('CPU by the role of each process of a zygote job', () => {
  it('gives every sample of the job\'s process tree to its role, per job', () => {
    const { jobs, msPerJob } = costByZygoteRole(JOB, 2);
    expect(jobs).toBe(1);
    expect(msPerJob).toEqual({
      zygote: 2,
      'job (grader)': 6,
      'student supervisor': 2,
      'teacher scripts': 2,
      'student sandbox (sandbox-exec)': 2,
      'student scripts': 4,
    });
  });

  it('divides by the jobs cloned in the window', () => {
    const twice = JOB + JOB.replace(/\b5(3[89]|4[0-2])\b/g, (pid) => String(Number(pid) + 100));
    const { jobs, msPerJob } = costByZygoteRole(twice, 2);
    expect(jobs).toBe(2);
    expect(msPerJob['job (grader)']).toBe(6);
  });

  it('finds no job in a window without a zygote', () => {
    expect(costByZygoteRole('            node   323/323   cpu-clock:pppH: \n', 2)).toEqual({ jobs: 0, msPerJob: expect.objectContaining({ 'job (grader)': 0 }) });
  });
});
