import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultGraderPython as gradingDefault, GRADER_PYTHON_VERSION } from '@shellgrade/grading';
import { defaultGraderPython as connectionsDefault } from '@shellgrade/variant';

describe("the graders' interpreter", () => {
  it('is the one the installer builds, wherever the default is read', () => {
    const tools = readFileSync(join(__dirname, '../../../infra/servers/tools.sh'), 'utf8');
    expect(/^GRADER_PYTHON_VERSION=(\S+)$/m.exec(tools)?.[1]).toBe(GRADER_PYTHON_VERSION);
    const env = { SHELLGRADE_TOOLS: '/opt/tools' };
    expect(connectionsDefault(env)).toBe(gradingDefault(env));
    expect(gradingDefault(env)).toBe(`/opt/tools/python-${GRADER_PYTHON_VERSION}/bin/python3`);
  });
});
