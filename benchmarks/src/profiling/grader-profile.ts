/**
 * `bench grader profile`: where one sandboxed grading's CPU goes, per execution mode: the grader-only loop of
 * the baseline runs while `perf record -a -g` samples the whole machine; the result folder keeps
 * per mode the component table (ms per grading: Node service side, Python interpreter, bwrap,
 * exec helpers, shells), the top symbols, and `perf script` output that speedscope (or
 * FlameGraph's stackcollapse-perf) opens as a flame graph.
 * Needs perf (apt-get install linux-perf) and root.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import type { ExecMode } from '@shellgrade/grading';
import { runGraderBaseline, type BaselineRow } from '../grader/baseline-runner';
import { graderBase, graderResultsDir, rowSeconds } from '../grader/grader-base';
import { costByComponent, parseReport, type ComponentCost, type Share } from './perf-report';
import { costByZygoteRole, ZYGOTE_ROLES, type RoleCosts } from './zygote-roles';

const PERF = '/usr/bin/perf';
const SAMPLE_HZ = '499';

interface ModeProfile {
  row: BaselineRow;
  components: ComponentCost[];
  byProcess: Share[];
  topSymbols: Share[];
  flameGraphInput: string;
  /** zygote mode: CPU per job by the role of each process of the job (zygote-roles.ts). */
  roles?: RoleCosts;
}

export async function graderProfile(o: { modes: ExecMode[]; concurrency: number; durationS: number; out?: string }): Promise<string> {
  requirePerf();
  const { modes, concurrency } = o;
  const durationS = rowSeconds(o.durationS);
  const outDir = resolve(o.out ?? join(graderResultsDir(), 'grader-profile', new Date().toISOString().replace(/[:.]/g, '-')));
  mkdirSync(outDir, { recursive: true });
  const profiles: Record<string, ModeProfile> = {};
  for (const exec of modes) {
    console.log(`profiling ${exec} x${concurrency} for ${durationS} s`);
    profiles[exec] = await profileMode(exec, concurrency, durationS, outDir);
  }
  writeFileSync(join(outDir, 'profile.json'), JSON.stringify({ createdAt: new Date().toISOString(), cpus: cpus().length, concurrency, durationS, profiles }, null, 2) + '\n');
  const markdown = renderMarkdown(profiles, concurrency);
  writeFileSync(join(outDir, 'profile.md'), markdown);
  console.log('\n' + markdown + `\nwritten ${outDir}/profile.{md,json} and perf-<mode>.txt (flame graphs: open in speedscope)`);
  return outDir;
}

/** Samples the machine while the grader loop of one mode runs (the perf window sits inside the loop's). */
async function profileMode(exec: ExecMode, concurrency: number, durationS: number, outDir: string): Promise<ModeProfile> {
  const data = join(outDir, `perf-${exec}.data`);
  const loop = runGraderBaseline({
    base: graderBase('profile'),
    rows: [{ exec, isolation: 'bwrap', concurrency }],
    durationPerRowMs: (durationS + 2) * 1000,
  });
  await waitMs(1000); // warm-up gradings and the pool's first workers are outside the window
  await runPerf(['record', '-a', '-g', '-F', SAMPLE_HZ, '-o', data, '--', 'sleep', String(durationS)]);
  const report = await loop;
  const row = report.rows[0];
  const gradingsSampled = row.gradingsPerS * durationS;
  const byProcess = parseReport(perfText(['report', '-i', data, '--no-children', '--sort', 'comm', '--stdio', '-g', 'none', '--percent-limit', '0.1']));
  const topSymbols = parseReport(perfText(['report', '-i', data, '--no-children', '--sort', 'comm,dso,sym', '--stdio', '-g', 'none', '--percent-limit', '0.5'])).slice(0, 25);
  const flameGraphInput = `perf-${exec}.txt`;
  writeFileSync(join(outDir, flameGraphInput), perfText(['script', '-i', data]));
  const roles = exec === 'zygote' ? costByZygoteRole(perfText(['script', '-i', data, '--show-task-events', '-F', 'comm,pid,tid,event']), 1000 / Number(SAMPLE_HZ)) : undefined;
  return { row, components: costByComponent(byProcess, cpus().length, durationS, gradingsSampled), byProcess, topSymbols, flameGraphInput, roles };
}

function renderMarkdown(profiles: Record<string, ModeProfile>, concurrency: number): string {
  const modes = Object.keys(profiles);
  const components = [...new Set(modes.flatMap((m) => profiles[m].components.map((c) => c.component)))];
  const cost = (m: string, c: string) => profiles[m].components.find((x) => x.component === c)?.msPerGrading ?? 0;
  const lines = [
    `## Grading CPU by component (paper-scripts, bwrap, ${concurrency} at once; perf, whole machine)`,
    '',
    `| component (CPU ms per grading) | ${modes.join(' | ')} |`,
    `|---|${modes.map(() => '---:').join('|')}|`,
    ...components.map((c) => `| ${c} | ${modes.map((m) => cost(m, c).toFixed(1)).join(' | ')} |`),
    `| **all busy CPU** | ${modes.map((m) => profiles[m].components.reduce((s, c) => s + c.msPerGrading, 0).toFixed(1)).join(' | ')} |`,
    `| gradings/s (this loop, under perf) | ${modes.map((m) => profiles[m].row.gradingsPerS.toFixed(1)).join(' | ')} |`,
    '',
    'Python = the interpreters (start-up and imports in pool/async; in zygote the forked job, supervisor and grader.py), extraction and checks; bwrap = namespaces and mounts of the grader sandbox and of each student-script sandbox; shell = the scripts under test and the cgroup-join wrapper. "other" = kernel threads and servers idling beside the loop.',
  ];
  for (const m of modes) {
    const roles = profiles[m].roles;
    if (roles?.jobs) {
      lines.push('', `### ${m}: CPU per job by process (${roles.jobs} jobs in the window; roles from perf's fork records)`, '', '| process of the job | CPU ms per job |', '|---|---:|');
      lines.push(...ZYGOTE_ROLES.map((r) => `| ${r} | ${roles.msPerJob[r].toFixed(1)} |`));
      lines.push(`| **all of the job's processes** | ${ZYGOTE_ROLES.reduce((sum, r) => sum + roles.msPerJob[r], 0).toFixed(1)} |`);
    }
    lines.push('', `### ${m}: top symbols (share of all samples; flame graph input ${profiles[m].flameGraphInput})`, '', '| % | process, object, symbol |', '|---:|---|');
    lines.push(...profiles[m].topSymbols.map((s) => `| ${s.pct.toFixed(2)} | \`${s.name}\` |`));
  }
  return lines.join('\n') + '\n';
}

function requirePerf(): void {
  try {
    execFileSync(PERF, ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error(`perf not found at ${PERF} (apt-get install linux-perf): the grading profile needs it`);
  }
}

function runPerf(args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    const p = spawn(PERF, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (c: Buffer) => (err += c.toString()));
    p.on('error', fail);
    p.on('exit', (code) => (code === 0 ? done() : fail(new Error(`perf ${args[0]} failed (${code}): ${err.slice(-500)}`))));
  });
}

function perfText(args: string[]): string {
  return execFileSync(PERF, args, { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
}

const waitMs = (ms: number) => new Promise((r) => setTimeout(r, ms));
