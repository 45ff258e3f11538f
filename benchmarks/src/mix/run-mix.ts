/**
 * `npm run bench -- mix --pattern <aggregation|offloading|pipeline>`: paper 003's request mixes
 * for one pattern — the pattern's variant and its baseline, each brought up cold and seeded, the
 * same mix of r1/r2 over p(r1) in the profile's list (benchmarks/mix.js), CPU sampled per process
 * — then the per-p table and curves, pattern vs baseline -> results/<stamp>-mix-<pattern>-<profile>/.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadVariant } from '@shellgrade/variant';
import { k6OptionsArgs, writeK6Options, type MixK6Options } from '../k6-options';
import { loadStartMs } from '../k6-run';
import { k6Path } from '../k6-tool';
import { phase } from '../log';
import { repoRoot, resultStamp, resultsDir } from '../paths';
import { loadProfile, type Mix } from '../profiles';
import { ResourceSampler, type ProcessGroup } from '../resource-sampler';
import { K6_GROUP } from '../resource-summary';
import { startInherited, waitExit } from '../shell';
import { entryUrl, processGroupsOf, resetProductions, seedStudents, variantStatus, variantUp } from '../stack';
import { mixSteps, type MixScheduleStep, type MixVariantResult } from './analyse';
import { mixHtml, mixMarkdown } from './report';

export type { MixVariantResult } from './analyse';
import { patternPlan, type PatternPlan } from './patterns';
import { exclusive } from '../harness-lock';

export interface MixOptions {
  pattern: string;
  /** k6/profiles.json mix profile (default mix-scaled). */
  profile: string;
  /** Overrides of the profile's mix. */
  ps?: number[];
  vus?: number;
  holdS?: number;
}

export interface MixRun {
  dir: string;
  plan: PatternPlan;
  results: MixVariantResult[];
  markdownFile: string;
  htmlFile: string;
}

export function runMix(opts: MixOptions): Promise<MixRun> {
  return exclusive(`bench mix ${opts.pattern}`, () => runMixNow(opts));
}

async function runMixNow(opts: MixOptions): Promise<MixRun> {
  const plan = patternPlan(opts.pattern);
  const profile = loadProfile(opts.profile);
  if (!profile.mix) throw new Error(`profile ${opts.profile} is not a mix profile (mix, mix-scaled, mix-smoke)`);
  const mix: Mix = { ...profile.mix, ...(opts.ps ? { ps: opts.ps } : {}), ...(opts.vus ? { vus: opts.vus } : {}), ...(opts.holdS ? { holdS: opts.holdS } : {}) };
  const stamp = resultStamp();
  const dir = join(resultsDir(), `${stamp}-mix-${plan.pattern}-${opts.profile}`);
  mkdirSync(dir, { recursive: true });
  phase(`mix ${plan.pattern}: ${plan.variants.join(' vs ')}, p(r1) ${mix.ps.join(',')}, ${mix.vus} VUs, ${mix.holdS} s each -> ${dir}`);

  const results: MixVariantResult[] = [];
  for (const [i, variant] of plan.variants.entries()) {
    results.push(await runOneVariant(variant, i === 0 ? 'pattern' : 'baseline', plan, opts.profile, profile.students, mix, dir));
  }
  const markdownFile = join(dir, 'mix.md');
  const htmlFile = join(dir, 'mix.html');
  const markdown = mixMarkdown(plan, results);
  writeFileSync(join(dir, 'mix.json'), JSON.stringify({ plan, results }, null, 2));
  writeFileSync(markdownFile, markdown);
  writeFileSync(htmlFile, mixHtml(plan, results, markdown));
  return { dir, plan, results, markdownFile, htmlFile };
}

async function runOneVariant(variant: string, role: 'pattern' | 'baseline', plan: PatternPlan, profileName: string, students: number, mix: Mix, dir: string): Promise<MixVariantResult> {
  const spec = loadVariant(variant);
  await variantUp(variant);
  const usersCsv = join(dir, `users-${variant}.csv`);
  await seedStudents(students, usersCsv, spec.auth.kdfCost);
  await resetProductions();
  const status = await variantStatus();

  const summaryFile = join(dir, `k6-mix-${variant}.json`);
  const logFile = join(dir, `k6-mix-${variant}.log`);
  // The k6 options file, kept beside the summary (k6-options.ts).
  const optionsFile = join(dir, `k6-options-mix-${variant}.json`);
  writeK6Options<MixK6Options>(optionsFile, {
    script: 'mix',
    profile: profileName,
    pattern: plan.pattern,
    aggregated: spec.gateway.pattern === 'aggregation',
    baseUrl: entryUrl(status),
    usersCsv,
    ps: mix.ps,
    vus: mix.vus,
    rampS: mix.rampS,
    holdS: mix.holdS,
    gapS: mix.gapS,
    summaryJson: summaryFile,
  });
  const args = ['run', '--quiet', '--log-output', `file=${logFile}`, '--log-format', 'json', ...k6OptionsArgs(optionsFile), join(repoRoot(), 'benchmarks', 'mix.js')];

  let groups: ProcessGroup[] = processGroupsOf(status);
  const sampler = new ResourceSampler(() => groups);
  sampler.start();
  phase(`mix ${variant}: k6 ${mix.ps.length} steps`);
  const k6 = startInherited(await k6Path(), args, {});
  if (k6.pid) groups = [...groups, { name: K6_GROUP, role: 'load', pid: k6.pid }];
  const k6ExitCode = await waitExit(k6);
  const samples = await sampler.stop();

  const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as {
    config: { schedule: MixScheduleStep[]; mix: { holdS: number } };
    k6: { metrics: Record<string, { values: Record<string, number> }> };
  };
  const startMs = await loadStartMs(logFile);
  const problems = [...(k6ExitCode !== 0 ? [`k6 exited with code ${k6ExitCode}`] : []), ...(startMs === 0 ? ['no start marker in the k6 log: CPU windows unknown'] : [])];
  const rows = mixSteps(summary.config.schedule, summary.config.mix.holdS, summary.k6.metrics, startMs ? samples : [], startMs);
  const result: MixVariantResult = { schema: 'shellgrade.mix/1', variant, pattern: plan.pattern, role, profile: profileName, mix, schedule: summary.config.schedule, rows, k6ExitCode, problems };
  writeFileSync(join(dir, `mix-${variant}.json`), JSON.stringify(result, null, 2));
  return result;
}
