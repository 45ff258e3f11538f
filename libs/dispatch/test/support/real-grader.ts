/**
 * The real sandboxed grader (Python under bubblewrap) for the broker tests, with the paper's
 * exercise from the catalog: good answers grade 100, a "slow" answer whose hello.sh sleeps
 * first keeps a grading in flight long enough to cut it (reply timeouts, kill -9).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncJobRunner, getCatalogExercise, loadSamples, PAPER_SLUG, SandboxGrader, graderPython } from '@shellgrade/grading';
// The grader's limits, cgroups and output bound: the spec's defaults (their one home).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { archiveBoundsOf, graderSchema, httpSchema, maxConcurrentGradings, warmPoolSize } from '@shellgrade/variant';

export const PAPER = getCatalogExercise(PAPER_SLUG);
export const GOOD_ANSWER = loadSamples(PAPER_SLUG).good;

/** A grader per process, its job directories in a private temporary root. */
export function realGrader(): SandboxGrader {
  const grader = graderSchema.parse({});
  const { limits, cgroups, maxOutputBytes } = grader;
  return new SandboxGrader({
    limits,
    cgroups,
    maxOutputBytes,
    archive: archiveBoundsOf({ http: httpSchema.parse({}), grader }),
    maxConcurrent: maxConcurrentGradings(grader, cpus().length),
    poolSize: warmPoolSize(grader, cpus().length),
    python: graderPython(),
    sandboxRoot: mkdtempSync(join(tmpdir(), 'sg-broker-grader-')),
    timeoutMs: 20_000,
    isolation: 'bwrap',
  }, asyncJobRunner);
}

/** The paper's good answer with a hello.sh that sleeps `seconds` before greeting: still graded 100, just later. */
export function slowAnswer(seconds: number): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'sg-slow-answer-'));
  try {
    writeFileSync(join(dir, 'good.tgz'), GOOD_ANSWER);
    execFileSync('tar', ['xzf', 'good.tgz'], { cwd: dir });
    rmSync(join(dir, 'good.tgz'));
    writeFileSync(join(dir, 'SCRIPTS', 'hello.sh'), `#!/bin/bash\nsleep ${seconds}\necho Hello World\n`, { mode: 0o755 });
    return execFileSync('tar', ['czf', '-', 'SCRIPTS'], { cwd: dir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
