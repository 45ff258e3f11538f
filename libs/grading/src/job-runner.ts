/**
 * The JobRunner port: how one grading's process is started and run (docs/design.md, The sandbox:
 * the exec modes). SandboxGrader takes a slot, writes the job's inputs in its folder, runs it and
 * releases it; which implementation (async, blocking, pool, zygote) is the wiring's choice
 * (grader.exec).
 */
import type { GradingJob } from '@shellgrade/domain';
import type { ExecMode } from './grader-options';
import type { JobSandbox } from './job-sandbox';
import type { RunOutcome } from './run-outcome';

export interface JobRunner {
  /** The spec value it implements (a span attribute). */
  readonly mode: ExecMode;
  /** A fresh job folder for the inputs, and the process that will grade them. */
  open(job: Pick<GradingJob, 'exerciseId' | 'locale'>): Promise<JobSlot>;
  /** Stops whatever the runner keeps warm. */
  close(): Promise<void>;
}

export interface JobSlot {
  /** The host folder the grader reads its inputs from. */
  readonly dir: string;
  run(timeoutMs: number): Promise<RunOutcome>;
  /** Removes the job folder and gives back what the slot held (called once, whatever happened). */
  release(): Promise<void>;
}

/** Builds a runner on the grader's sandbox host (its folders, control groups and command line). */
export type JobRunnerFactory = (sandbox: JobSandbox) => JobRunner;
