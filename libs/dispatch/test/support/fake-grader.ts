/**
 * A grader for broker-mechanics tests: it takes a little (non-blocking) time like a real
 * sandboxed grading, returns a grade derived from the archive, and crashes with a plain
 * (non-domain) error on any archive containing POISON — the "grader that crashes on one
 * archive" of the fault tests. The DB, the broker and GradingWorker around it are real.
 */
import type { Grader, GradingJob, GradingResult } from '@shellgrade/domain';

export const POISON = Buffer.from('POISON');

export class FakeGrader implements Grader {
  /** Gradings started, by archive text (lets a test count regradings). */
  readonly calls = new Map<string, number>();

  constructor(private readonly delayMs = 50) {}

  async grade(job: GradingJob): Promise<GradingResult> {
    const key = job.submission.toString('utf8');
    this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (job.submission.includes(POISON)) throw new Error('simulated grader crash on a poison archive');
    return { grade: job.submission.length % 101, comment: [{ numQ: 1, verif: 'fake', status: 'OK', expl: key }] };
  }
}
