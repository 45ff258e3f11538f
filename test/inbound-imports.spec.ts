import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';

/*
 * eslint.config.mjs's restricted imports for inbound code, held to a probe: source linted as if it
 * sat at a path of the repository (stdin, nothing written to the tree), with the repository's own
 * config. A renamed export or a glob that stops matching the controllers turns this red, where
 * `npm run lint` would silently pass on the real tree. ESLint runs as its own process: its flat
 * config is an ES module, which Jest's CommonJS runtime cannot import.
 */
const repo = resolve(__dirname, '..');
const eslint = join(repo, 'node_modules', '.bin', 'eslint');

interface LintMessage {
  ruleId: string | null;
  message: string;
}

function restrictedImports(code: string, file: string): string[] {
  let out: string;
  try {
    // The Nx boundary rule needs the project graph and is not what this probe holds.
    out = execFileSync(eslint, ['--stdin', '--stdin-filename', file, '--format', 'json', '--rule', '@nx/enforce-module-boundaries: off'], { cwd: repo, input: code, encoding: 'utf8' });
  } catch (e) {
    // eslint exits 1 when it reports errors; the report is still on stdout.
    out = (e as { stdout: string }).stdout;
  }
  const [result] = JSON.parse(out) as { messages: LintMessage[] }[];
  return result!.messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').map((m) => m.message);
}

const CONTROLLER = 'libs/api/src/admin/probe.controller.ts';

describe('inbound code reaches libs/auth through its ports', () => {
  it('refuses a controller that imports the rate-limit counters, the KDF functions or the session classes, naming the port to use', () => {
    const refused = { RateLimits: 'ATTEMPT_LIMITS', hashPassword: 'SECRET_HASHING', hashEnrolmentKey: 'SECRET_HASHING', verifyEnrolmentKey: 'SECRET_HASHING', AuthService: 'LOGIN_SESSIONS' };
    const names = Object.keys(refused);
    const messages = restrictedImports(`import { ${names.join(', ')} } from '@shellgrade/auth';\nexport const x = [${names.join(', ')}];\n`, CONTROLLER);
    expect(messages).toHaveLength(names.length);
    for (const [name, port] of Object.entries(refused)) expect(messages.find((m) => m.includes(`'${name}'`))).toContain(port);
  });

  it('lets a controller import the ports and the types, and a test build the adapters', () => {
    const ports = `import { ATTEMPT_LIMITS, SECRET_HASHING, type AttemptLimits, type SecretHashing, type RateLimits } from '@shellgrade/auth';\nexport const x: [AttemptLimits?, SecretHashing?, RateLimits?] = [];\nexport const y = [ATTEMPT_LIMITS, SECRET_HASHING];\n`;
    expect(restrictedImports(ports, CONTROLLER)).toEqual([]);
    expect(restrictedImports(`import { RateLimits, hashPassword } from '@shellgrade/auth';\nexport const x = [RateLimits, hashPassword];\n`, 'libs/api/test/probe.spec.ts')).toEqual([]);
  });

  it('refuses a CRUD or trial controller that names a repository port or the grader: it calls a use case of libs/application', () => {
    const probe = `import { EXERCISE_REPOSITORY, GRADER, notFound } from '@shellgrade/domain';\nimport { ManageExercises } from '@shellgrade/application';\nexport const x = [EXERCISE_REPOSITORY, GRADER, notFound, ManageExercises];\n`;
    const messages = restrictedImports(probe, CONTROLLER);
    expect(messages).toHaveLength(2);
    for (const m of messages) expect(m).toContain('libs/application');
    expect(restrictedImports(probe, 'libs/api/src/exercise-trial.controller.ts')).toHaveLength(2);
    // The auth ports rule still holds in these files.
    expect(restrictedImports(`import { RateLimits } from '@shellgrade/auth';\nexport const x = RateLimits;\n`, CONTROLLER)).toHaveLength(1);
  });
});
