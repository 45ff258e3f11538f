/**
 * Where the graders' interpreter lives when SG_PYTHON does not say: the CPython that
 * `infra/bin/servers install grader-python` builds into the tools folder (infra/servers/tools.sh
 * explains why neither Debian's nor pyenv's Python is fit to extract hostile archives).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Must match GRADER_PYTHON_VERSION in infra/servers/tools.sh (a unit test holds them together). */
export const GRADER_PYTHON_VERSION = '3.11.16';

export function defaultGraderPython(env: NodeJS.ProcessEnv = process.env): string {
  const tools = env.SHELLGRADE_TOOLS ?? join(homedir(), '.cache', 'shellgrade', 'tools');
  return join(tools, `python-${GRADER_PYTHON_VERSION}`, 'bin', 'python3');
}

/** SG_PYTHON when set, else the built interpreter. */
export const graderPython = (env: NodeJS.ProcessEnv = process.env): string => env.SG_PYTHON ?? defaultGraderPython(env);
