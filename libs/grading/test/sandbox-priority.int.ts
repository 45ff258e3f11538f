/**
 * grader.nice on the real sandbox: the grader process and its scheduler autogroup both run at
 * the configured niceness (the autogroup is what the kernel weighs between sessions), and the
 * sandboxed code cannot raise its priority above the service's.
 */
import { readFileSync } from 'node:fs';
import { closeGraders, grader, makeSandboxRoot, scriptJob } from './sandbox-helpers';

const sandbox = makeSandboxRoot('priority');
afterAll(() => sandbox.cleanup());
afterEach(async () => {
  await closeGraders();
  expect(sandbox.leftovers()).toEqual([]);
});

const autogroupEnabled = (() => {
  try {
    return readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() === '1';
  } catch {
    return false;
  }
})();

// Reports its nice value, its autogroup line, and whether it could renice itself to 0 or its
// autogroup below 0 (the service's weight is 0: a grader may give back, never take more).
const probe = [
  'import json, os',
  'def attempt(f):',
  '    try:',
  '        f()',
  '        return "lowered"',
  '    except OSError:',
  '        return "refused"',
  'def write_autogroup():',
  '    with open("/proc/self/autogroup", "w") as fh:',
  '        fh.write("-5")',
  'nice = os.nice(0)',
  'try:',
  '    group = open("/proc/self/autogroup").read().strip()',
  'except OSError:',
  '    group = "absent"',
  'facts = {"nice": nice, "group": group, "renice": attempt(lambda: os.setpriority(os.PRIO_PROCESS, 0, 0)), "regroup": attempt(write_autogroup)}',
  'print(json.dumps({"grade": 100, "comment": [{"numQ": 1, "verif": "priority", "status": "OK", "expl": json.dumps(facts)}]}))',
].join('\n');

async function facts(exec: 'async' | 'blocking' | 'pool', niceness?: number): Promise<{ nice: number; group: string; renice: string; regroup: string }> {
  const g = grader(sandbox.root, { exec, niceness });
  const r = await g.grade(scriptJob(probe));
  return JSON.parse(r.comment[0].expl) as { nice: number; group: string; renice: string; regroup: string };
}

describe.each([['async'], ['blocking'], ['pool']] as const)('grader niceness (bwrap, %s)', (exec) => {
  it('is the service priority by default', async () => {
    const f = await facts(exec);
    expect(f.nice).toBe(0);
    if (autogroupEnabled) expect(f.group).toMatch(/ nice 0$/);
  });

  it('applies to the process and its autogroup, and the grader cannot outrank the service', async () => {
    const f = await facts(exec, 10);
    expect(f.nice).toBe(10);
    expect(f.renice).toBe('refused');
    if (autogroupEnabled) {
      expect(f.group).toMatch(/ nice 10$/);
      expect(f.regroup).toBe('refused');
    }
  });
});
