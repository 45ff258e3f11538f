import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Repository root: the first folder above this file holding k6/profiles.json (works from src and dist). */
export function repoRoot(): string {
  let dir = __dirname;
  for (;;) {
    if (existsSync(join(dir, 'k6', 'profiles.json')) && existsSync(join(dir, 'benchmarks'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no repository root (k6/profiles.json) above ${__dirname}`);
    dir = parent;
  }
}

export function resultsDir(): string {
  return resolve(process.env.SG_RESULTS_DIR ?? join(repoRoot(), 'results'));
}

export function runDir(runId: string): string {
  return join(resultsDir(), runId);
}

/** The k6 script of scenario R; SG_SPS_SCRIPT runs another (an older client, measured back to back with this one). */
export function spsScript(): string {
  return process.env.SG_SPS_SCRIPT ?? join(repoRoot(), 'benchmarks', 'sps.js');
}

/** The paper-equivalent good answer built by the grading catalog (libs/grading/catalog/build.py). */
export function defaultArchive(): string {
  return process.env.SG_SPS_ARCHIVE ?? join(repoRoot(), 'libs', 'grading', 'catalog', 'build', 'paper-scripts', 'good.tgz');
}

/**
 * The folder a new record (findings, a reproduction) is written to under `parent`: the day's
 * (2026-12-06), or, when that already holds a record (`recordFile`), one named to the minute
 * (2026-12-06T1521Z): a second run of the day once wrote its record over the first's. Either name
 * sorts after the days before and before the days after, as "the newest record" reads them.
 */
export function newRecordDir(parent: string, recordFile: string, at = new Date()): string {
  const iso = at.toISOString();
  const day = join(parent, iso.slice(0, 10));
  return existsSync(join(day, recordFile)) ? join(parent, `${iso.slice(0, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}Z`) : day;
}

/** The UTC stamp that starts every result folder's name: 20261125T043000Z. */
export function resultStamp(at = new Date()): string {
  return at.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}
