/** Locates files shipped with libs/grading (Python helper library, catalog) from src/ or dist/. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

let cached: string | undefined;

/** Absolute path of libs/grading in the checkout, whether running from src (jest) or dist. */
export function gradingLibDir(): string {
  if (cached) return cached;
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'python', 'shellgrade_grader'))) return (cached = dir);
    const fromRoot = join(dir, 'libs', 'grading');
    if (existsSync(join(fromRoot, 'python', 'shellgrade_grader'))) return (cached = fromRoot);
    if (dirname(dir) === dir) throw new Error(`cannot locate libs/grading/python from ${__dirname}`);
  }
}

export const helperLibDir = () => join(gradingLibDir(), 'python');
export const catalogDir = () => join(gradingLibDir(), 'catalog');
