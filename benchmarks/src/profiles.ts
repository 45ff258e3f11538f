import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { repoRoot } from './paths';

/** One load profile (k6/profiles.json is shared with benchmarks/sps.js). */
export const profileSchema = z.object({
  peak: z.number().positive(),
  rampS: z.number().nonnegative(),
  holdS: z.number().nonnegative(),
  runs: z.number().int().positive(),
  betweenRunsS: z.number().nonnegative(),
  pauseS: z.number().nonnegative(),
  students: z.number().int().positive(),
  thresholds: z.boolean(),
  /** false: no connection reuse between the users a k6 VU plays (k6 noVUConnectionReuse), as Gatling. */
  connectionReuse: z.boolean().default(false),
  /** even: k6's evenly spaced arrivals; exponential: Poisson arrivals (k6/lib/scenario-r.js). */
  arrivals: z.enum(['even', 'exponential']).default('even'),
});
export type Profile = z.infer<typeof profileSchema>;

export function loadProfiles(file = join(repoRoot(), 'k6', 'profiles.json')): Record<string, Profile> {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const out: Record<string, Profile> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (name.startsWith('_')) continue;
    out[name] = profileSchema.parse(value);
  }
  return out;
}

export function loadProfile(name: string): Profile {
  const all = loadProfiles();
  const p = all[name];
  if (!p) throw new Error(`unknown profile "${name}" (known: ${Object.keys(all).join(', ')})`);
  return p;
}
