// The Python of the research tools (line-solver, kubernetes-validate): SG_TOOLS_PYTHON, else what
// scripts/tools-python.sh discovers (the first 3.11+ with pip). Never the graders' interpreter.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './paths';

let discovered: string | undefined;

export function toolsPython(): string {
  if (process.env.SG_TOOLS_PYTHON) return process.env.SG_TOOLS_PYTHON;
  discovered ??= execFileSync('bash', [join(repoRoot(), 'scripts', 'tools-python.sh')], { encoding: 'utf8' }).trim();
  return discovered;
}
