import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

/*
 * eslint.config.mjs refuses, in apps/web, a hand-written copy of a contract type (a type or
 * interface named like a component of the generated API types) and a call of the public API
 * around the generated client. Held to a probe: source linted as if it sat in apps/web/src
 * (stdin, nothing written to the tree), so a rule that stopped matching turns this red where
 * `npm run lint` would pass silently. ESLint runs as its own process: its flat config is an ES
 * module, which Jest's CommonJS runtime cannot import.
 */
const repo = resolve(__dirname, '../../..');
const eslint = join(repo, 'node_modules', '.bin', 'eslint');

function refusals(code: string, file = 'apps/web/src/pages/Probe.tsx'): string[] {
  let out: string;
  try {
    out = execFileSync(eslint, ['--stdin', '--stdin-filename', file, '--format', 'json', '--rule', '@nx/enforce-module-boundaries: off'], { cwd: repo, input: code, encoding: 'utf8' });
  } catch (e) {
    // eslint exits 1 when it reports errors; the report is still on stdout.
    out = (e as { stdout: string }).stdout;
  }
  const [result] = JSON.parse(out) as { messages: { ruleId: string | null; line: number }[] }[];
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => String(m.line));
}

describe('the web app writes no contract type by hand', () => {
  it('refuses a type or interface named like a contract body, generated or declared (Exercise, TrialReply, WebAppConfig, SessionUserBody)', () => {
    const probe = [
      'export interface Exercise { ex_id: number }',
      "export type TrialReply = { outcome: 'graded' };",
      'export interface WebAppConfig { traces: boolean }',
      'export type SessionUserBody = { user_id: number };',
    ].join('\n');
    expect(refusals(probe)).toEqual(['1', '2', '3', '4']);
  });

  it('refuses a call of /api or /app-config.json around the generated client', () => {
    const probe = [
      "import { request } from '../api';",
      "export const a = () => request<unknown>('/api/exercise');",
      'export const b = (id: number) => request<unknown>(`/api/exercise/${id}`);',
      "export const c = () => request<unknown>('/app-config.json');",
    ].join('\n');
    expect(refusals(probe)).toEqual(['2', '3', '4']);
  });

  it('lets a page name its own types, import the generated ones and call the console outside the contract', () => {
    const probe = [
      "import type { Exercise } from '../api-types.generated';",
      "import { request } from '../api';",
      'export interface ExerciseRow { exercise: Exercise; open: boolean }',
      "export const runs = () => request<unknown>('/ops/runs');",
    ].join('\n');
    expect(refusals(probe)).toEqual([]);
  });
});
