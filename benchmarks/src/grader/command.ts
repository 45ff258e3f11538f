// `npm run bench -- grader <baseline|cpu|profile>`: the sandboxed grader alone, no HTTP, database
// or queue (registered by cli.ts). Each writes under results/ like every bench command.
import type { Command } from 'commander';
import { opt, positiveInt } from '../options';
import { graderProfile } from '../profiling/grader-profile';
import { graderBaseline } from './baseline';
import { cpuPerGrading } from './cpu-per-grading';
import { execModes } from './grader-base';

export function registerGraderCommand(program: Command): Command {
  const grader = program.command('grader').description('the sandboxed grader alone (paper-scripts, its good answer): gradings/s, CPU per grading, where its CPU goes');

  grader
    .command('baseline')
    .description('gradings/s and ms/grading per exec mode and isolation (async, blocking, pool, zygote x1, x2 under bwrap; async without isolation): the physical limit of every variant -> <out>/<stamp>.json and latest.json (a bench run copies latest.json)')
    .addOption(opt('durationS', { description: 'seconds per row, in (0, 60]', default: 2 }))
    .addOption(opt('out', { description: 'output folder (default: results/grader-baseline)' }))
    .action(async (f: { durationS: number; out?: string }) => {
      const report = await graderBaseline(f);
      if (report.rows.some((r) => r.failures > 0)) process.exitCode = 1;
    });

  grader
    .command('cpu')
    .description("CPU ms per grading of each exec mode, start-up left out (a short and a long loop, their difference), counted by a cpuacct control group of this process's own (root, cgroup v1) -> <out>/<stamp>.json")
    .addOption(opt('modes', { default: ['zygote'], defaultDescription: 'zygote' }))
    .addOption(opt('concurrency', { default: 1 }))
    .option('--gradings <n>', 'gradings of the long loop (the short one: a fifth, at least 10)', positiveInt, 300)
    .addOption(opt('out', { description: 'output folder (default: results/grader-cpu)' }))
    .action(async (f: { modes: string[]; concurrency: number; gradings: number; out?: string }) => {
      const rows = await cpuPerGrading({ ...f, modes: execModes(f.modes) });
      if (rows.some((r) => r.failures > 0)) process.exitCode = 1;
    });

  grader
    .command('profile')
    .description("where a grading's CPU goes per exec mode: the grader loop under perf record -a -g (perf and root) -> <out>/profile.{md,json} and per mode perf-<mode>.txt (perf script: speedscope opens it as a flame graph)")
    .addOption(opt('modes', { default: ['pool', 'zygote'], defaultDescription: 'pool,zygote' }))
    .addOption(opt('concurrency', { default: 2 }))
    .addOption(opt('durationS', { description: 'seconds perf samples each mode, in (0, 60]', default: 8 }))
    .addOption(opt('out', { description: 'output folder (default: results/grader-profile/<stamp>)' }))
    .action(async (f: { modes: string[]; concurrency: number; durationS: number; out?: string }) => {
      await graderProfile({ ...f, modes: execModes(f.modes) });
    });

  return grader;
}
