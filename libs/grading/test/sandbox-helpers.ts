/** Shared setup for the real-sandbox tests: a private sandbox root and job builders. */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GradingJob } from '@shellgrade/domain';
import { SandboxGrader } from '../src/sandbox-grader';
import type { ExecMode, GraderOptions, SandboxLimits } from '../src/grader-options';
import type { JobRunnerFactory } from '../src/job-runner';
import { asyncJobRunner, blockingJobRunner } from '../src/process-runner';
import { warmPoolJobRunner } from '../src/warm-pool';
import { zygoteJobRunner } from '../src/zygote-pool';
import { getCatalogExercise } from '../src/catalog';
import { graderPython } from '../src/grader-python';
import { specGraderSettings } from './spec-settings';

export const PYTHON = graderPython();

export function makeSandboxRoot(tag: string): { root: string; leftovers: () => string[]; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), `sg-${tag}-`));
  return {
    root,
    /** Job directories still present (they live in <root>/p<pid>/). */
    leftovers: () =>
      readdirSync(root, { withFileTypes: true })
        .filter((owner) => owner.isDirectory()) // (the system-call filter and the student sandbox's launcher sit beside the owners' folders)
        .flatMap((owner) => readdirSync(join(root, owner.name)).map((d) => `${owner.name}/${d}`)),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

const open: SandboxGrader[] = [];

/** The runner of each exec mode, as the wiring's table picks it (libs/wiring/src/adapters.ts graderExec). */
export const RUNNERS: Record<ExecMode, JobRunnerFactory> = { async: asyncJobRunner, blocking: blockingJobRunner, pool: warmPoolJobRunner, zygote: zygoteJobRunner };

/** A grader with the spec's defaults; `limits` changes only the limits it names. */
export function grader(
  root: string,
  overrides: Partial<Omit<GraderOptions, 'limits'>> & { exec?: ExecMode; limits?: Partial<SandboxLimits> } = {},
): SandboxGrader {
  const { limits, exec = 'async', ...rest } = overrides;
  // failures are expected here by the dozen: the tests read them from the error, not the log
  const g = new SandboxGrader({
    python: PYTHON,
    sandboxRoot: root,
    timeoutMs: 10_000,
    isolation: 'bwrap',
    log: () => undefined,
    ...specGraderSettings(limits),
    ...rest,
  }, RUNNERS[exec]);
  open.push(g);
  return g;
}

/** Stops the warm processes of pool-mode graders (their ready job dirs go with them). */
export async function closeGraders(): Promise<void> {
  await Promise.all(open.splice(0).map((g) => g.close()));
}

export function catalogJob(slug: string, submission: Buffer): GradingJob {
  const ex = getCatalogExercise(slug);
  return { exerciseId: 1, graderScript: ex.graderScript, statementHtml: ex.statementHtml, questionArchive: ex.questionArchive, submission, locale: ex.locale };
}

/** A job running an arbitrary grader script against the paper's good answer. */
export function scriptJob(graderScript: string, submission?: Buffer, locale = 'en'): GradingJob {
  const base = getCatalogExercise('paper-scripts');
  return { ...catalogJob('paper-scripts', submission ?? base.questionArchive), graderScript, locale };
}

export const notOk = (comment: { numQ: number; status: string }[]) =>
  comment.filter((c) => c.status !== 'OK').map((c) => c.numQ).sort((a, b) => a - b);

/**
 * Polls `condition` every 50 ms until it holds (event-based wait, no timing asserted); gives up
 * after `maxPolls` with a message naming what never happened.
 */
export async function pollUntil(what: string, condition: () => boolean, maxPolls = 400): Promise<void> {
  for (let i = 0; i < maxPolls; i++) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never happened: ${what}`);
}
