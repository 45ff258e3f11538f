// Gathers what the published summary needs from a findings record on this machine: its
// evaluation (findings.json), the host, commit and testbed from its run folders, and the newest
// reproduction scorecard when one exists — then writes docs/findings and the README section (a
// full record), or docs/findings/<mode> (a quick or smoke one).
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { resultsDir } from '../paths';
import { latestReproduceDir, SCORECARD_FILES } from '../reproduce/record';
import type { Scorecard } from '../reproduce/scorecard';
import { publicationOf, publishedFrom, writePublished, type EvaluatedRecord, type RunFacts } from './publish';
import { RECORD_FILE } from './record';
import { sidesOf } from './run';

/** Host, commit and testbed of a record's runs (their manifests and meta). */
export function runFacts(e: EvaluatedRecord): RunFacts {
  const sides = e.record ? Object.values(sidesOf(e.record)) : [];
  const metas = sides.map((s) => s.result.aggregated.meta);
  const projects = sides.map((s) => {
    const file = join(s.result.dir, 'manifest.json');
    return existsSync(file) ? ((JSON.parse(readFileSync(file, 'utf8')) as { project?: { commit?: string | null; dirty?: boolean | null } }).project ?? {}) : {};
  });
  const m = metas[0]?.machine;
  const testbeds = [...new Set(metas.map((x) => (x.placement as { testbed?: { testbed?: string } } | undefined)?.testbed?.testbed ?? 'unscaled'))];
  return {
    host: m ? { cpuModel: m.cpuModel, cores: m.cores, memGiB: Math.round(m.memBytes / 2 ** 30), kernel: m.kernel, speed: m.speed ? { scryptN14Ms: m.speed.scryptN14Ms, spawnMs: m.speed.spawnMs } : null } : null,
    commit: projects.find((p) => p.commit)?.commit ?? null,
    dirtyRuns: projects.filter((p) => p.dirty).length,
    testbed: testbeds.join(' / ') || 'unscaled',
  };
}

export interface PublishOptions {
  /** The repository whose docs/findings (and README, for a full record) receive it. */
  repo: string;
  /** Another folder to write (--docs); the README is still written for a full record only. */
  docsDir?: string;
  /** A reproduction folder whose scorecard.json to include (default: the newest, if any). */
  scorecardDir?: string | null;
  command: string;
}

export function publishRecord(dir: string, o: PublishOptions): string[] {
  const evaluated = join(dir, 'findings.json');
  if (!existsSync(join(dir, RECORD_FILE)) || !existsSync(evaluated)) throw new Error(`${dir}: no ${RECORD_FILE} and findings.json to publish (evaluate it first: npm run findings -- --from ${dir})`);
  const e = JSON.parse(readFileSync(evaluated, 'utf8')) as EvaluatedRecord;
  const scoreDir = o.scorecardDir === undefined ? latestReproduceDir() : o.scorecardDir;
  const scoreFile = scoreDir ? join(scoreDir, SCORECARD_FILES.json) : null;
  const scorecard = scoreFile && existsSync(scoreFile) ? (JSON.parse(readFileSync(scoreFile, 'utf8')) as Scorecard) : null;
  const p = publishedFrom(e, { record: relative(join(resultsDir(), '..'), dir) || dir, command: o.command, facts: runFacts(e), scorecard });
  const place = publicationOf(e.plan.mode, o.repo, o.docsDir);
  return writePublished(p, place.docsDir, place.readmeFile);
}
