// A finished suite run analysed again with today's rules, from its own request lines (k6-run-N.log):
// steps, timeline and verdicts are recomputed; the memory series and a soak's verdict, which need
// the live PSS samples, are kept as recorded. The recorded suite-run-N.json files stay untouched
// (they are raw data of the run); the result goes to suite-reanalysis.json beside them.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRequestLines } from '../k6-run';
import { suiteSchema } from '../profiles';
import { analyseSuiteRun, type SuiteRun } from './analyse';

export interface SuiteReanalysis {
  schema: 'shellgrade.suite-reanalysis/1';
  runFolder: string;
  runs: SuiteRun[];
}

export async function reanalyseSuiteRuns(dir: string): Promise<SuiteReanalysis> {
  const metaFile = join(dir, 'meta.json');
  if (!existsSync(metaFile)) throw new Error(`${dir} is not a run folder (no meta.json)`);
  const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as { profile: { suite?: unknown } };
  if (!meta.profile.suite) throw new Error(`${dir} is not a suite run (its profile has no suite)`);
  const suite = suiteSchema.parse(meta.profile.suite);
  const recorded = readdirSync(dir).filter((f) => /^suite-run-\d+\.json$/.test(f)).sort();
  if (recorded.length === 0) throw new Error(`${dir} has no suite-run-N.json to analyse again`);
  const runs: SuiteRun[] = [];
  for (const file of recorded) {
    const old = JSON.parse(readFileSync(join(dir, file), 'utf8')) as SuiteRun;
    const lines = await readRequestLines(join(dir, `k6-run-${old.run}.log`));
    if (lines.requests.length === 0) throw new Error(`k6-run-${old.run}.log of ${dir} has no request lines`);
    const fresh = analyseSuiteRun({ run: old.run, suite, schedule: old.schedule, ...lines, samples: [], loadFromMs: old.loadFromMs, k6: old.k6 });
    runs.push({ ...fresh, memory: old.memory, ...(old.soak ? { soak: old.soak } : {}) });
  }
  const out: SuiteReanalysis = { schema: 'shellgrade.suite-reanalysis/1', runFolder: dir, runs };
  writeFileSync(join(dir, 'suite-reanalysis.json'), JSON.stringify(out, null, 2));
  return out;
}
