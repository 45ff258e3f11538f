import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResourceSample } from './resource-sampler';

const COLUMNS: (keyof ResourceSample)[] = ['run', 'tS', 'epochMs', 'group', 'role', 'pids', 'cpuPct', 'cpuS', 'rssBytes'];

/** resources.csv (one row per group and second) and resources.json (same rows). */
export function writeResources(dir: string, samples: ResourceSample[]): void {
  const csv = [COLUMNS.join(',')].concat(samples.map((s) => COLUMNS.map((c) => String(s[c])).join(','))).join('\n') + '\n';
  writeFileSync(join(dir, 'resources.csv'), csv);
  writeFileSync(join(dir, 'resources.json'), JSON.stringify({ columns: COLUMNS, samples }, null, 0));
}
