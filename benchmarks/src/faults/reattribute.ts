// `bench faults-reattribute`: the latency faults of recorded faults folders judged again from
// Jaeger with the attribution as it is now (their windows and hop from faults.json), the folders'
// faults.json / faults.md rewritten. Needs Jaeger to still hold the runs' traces; a run that
// cannot be judged again keeps its earlier verdict, and the reason is returned.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDir } from '../paths';
import type { FaultResult } from './analyse';
import type { namedShare } from './attribution';
import { judgeLatencyRun } from './judge-latency';
import { attributionShare, writeFaultsReport } from './report';
import { asHop } from './route';

export async function reattribute(folder: string): Promise<{ results: FaultResult[]; share: ReturnType<typeof namedShare>; kept: string[] }> {
  const file = join(folder, 'faults.json');
  if (!existsSync(file)) throw new Error(`no faults.json in ${folder}`);
  const json = JSON.parse(readFileSync(file, 'utf8')) as { results: FaultResult[] };
  const results: FaultResult[] = [];
  const kept: string[] = [];
  for (const r of json.results) {
    if (r.attribution === undefined) {
      results.push(r);
      continue;
    }
    const hop = asHop(r.fault.split(':')[1] ?? '');
    const judged = await judgeLatencyRun(runDir(r.runId), hop, r.variant, { fromMs: r.before.fromMs, toMs: r.before.toMs }, { fromMs: r.applied.injectedAtMs, toMs: r.applied.undoneAtMs });
    if (judged.attribution === null) {
      kept.push(`${r.runId}: earlier verdict kept (${judged.attributionError})`);
      results.push(r);
      continue;
    }
    const { attributionError: _previous, ...rest } = r;
    results.push({ ...rest, attribution: judged.attribution });
  }
  writeFaultsReport(folder, results);
  return { results, kept, share: attributionShare(results) };
}
