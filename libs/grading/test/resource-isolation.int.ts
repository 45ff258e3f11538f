/**
 * One grading cannot starve the others (docs/design.md, Untrusted input): a fork bomb or a memory
 * hog is contained in its own grading's control group, a grading writes into a tmpfs of bounded
 * size, and a grader runs at most `maxConcurrent` gradings at once. Real bwrap, real cgroups.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadSamples } from '../src/catalog';
import { tgz } from './hostile-archives';
import { catalogJob, closeGraders, grader, makeSandboxRoot, notOk, scriptJob } from './sandbox-helpers';

jest.setTimeout(60_000);

const sandbox = makeSandboxRoot('resources');
afterAll(() => sandbox.cleanup());
afterEach(async () => {
  await closeGraders();
  expect(sandbox.leftovers()).toEqual([]);
});

/** Processes of the sandbox uids (graders 65534, student scripts 65533) whose command line holds `marker`. */
const sandboxed = (marker: string) =>
  execFileSync('ps', ['-e', '-o', 'uid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => /^\s*6553[34] /.test(l) && l.includes(marker));

const resultLine = (expl: string) => `print(json.dumps({"grade": 0, "comment": [{"numQ": 1, "verif": "probe", "status": "OK", "expl": ${expl}}]}))`;

it('the machine offers per-grading control groups (pids at least), so the tests below test them', () => {
  const g = grader(sandbox.root);
  expect(g.cgroups).toBeDefined();
});

// A zygote reports a job once all of it is reaped; an async grading's group still counts a pid when
// bwrap's exit is seen, so it is removed and the next grading gets a new one (the old way).
it('zygote: gradings one after another recycle one emptied control group and the worker\'s folder, each with its own inputs, none left behind', async () => {
  const g = grader(sandbox.root, { exec: 'zygote', poolSize: 1, maxConcurrent: 1 });
  const paper = loadSamples('paper-scripts');
  const jobGroups = () => g.cgroups!.controllers.map((parent) => readdirSync(parent).filter((n) => n.startsWith('job-')));
  // one worker, one folder: each grading's inputs are its own (another exercise's grader or answer fails)
  const greet = loadSamples('greet-script');
  const failedChecks = [];
  for (const [slug, archive] of [['paper-scripts', paper.good], ['greet-script', greet.good], ['paper-scripts', paper.bad[0].bytes]] as const) {
    failedChecks.push(notOk((await g.grade(catalogJob(slug, archive))).comment).length > 0);
  }
  expect(failedChecks).toEqual([false, false, true]);
  const groups = jobGroups();
  expect(groups.map((names) => names.length)).toEqual(groups.map(() => 1));
  // and no submission stays on disk between gradings
  const workerFolders = sandbox.leftovers().filter((d) => /\/zygote-/.test(d)).map((d) => join(sandbox.root, d, 'job'));
  expect(workerFolders.map((folder) => readdirSync(folder))).toEqual([[]]);
});

it('a fork bomb in one submission does not starve gradings running beside it', async () => {
  const g = grader(sandbox.root, { timeoutMs: 8000 });
  const bomb = await tgz([
    { name: 'SCRIPT/', type: 'directory', mode: 0o755 },
    { name: 'SCRIPT/greet.sh', body: '#!/bin/bash\nb(){ b | b & }; b\nsleep 30\n', mode: 0o755 },
  ]);
  const bombing = g.grade(catalogJob('greet-script', bomb)).catch((e: Error) => e);
  // wait until the bomb has filled its process quota
  for (let i = 0; i < 100 && sandboxed('greet.sh').length < 20; i++) await new Promise((r) => setTimeout(r, 100));
  expect(sandboxed('greet.sh').length).toBeGreaterThanOrEqual(20);
  const paper = loadSamples('paper-scripts');
  const beside = await Promise.all([g.grade(catalogJob('paper-scripts', paper.good)), g.grade(catalogJob('paper-scripts', paper.good))]);
  expect(beside.map((r) => ({ grade: r.grade, notOk: notOk(r.comment) }))).toEqual([
    { grade: 100, notOk: [] },
    { grade: 100, notOk: [] },
  ]);
  await bombing;
  for (let i = 0; i < 50 && sandboxed('greet.sh').length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  expect(sandboxed('greet.sh')).toEqual([]);
});

it('what a grading writes goes to a tmpfs of bounded size, never to the host disk', async () => {
  const script = [
    'import errno, json',
    'written = 0',
    'try:',
    '    for i in range(40):',
    '        with open(f"fill-{i}.bin", "wb") as f:',
    '            f.write(b"x" * (1024 * 1024))',
    '        written += 1',
    'except OSError as e:',
    '    written = f"{written} then {errno.errorcode[e.errno]}"',
    resultLine('str(written)'),
  ].join('\n');
  const r = await grader(sandbox.root, { limits: { jobBytes: 8 * 1024 * 1024 } }).grade(scriptJob(script));
  expect(r.comment[0].expl).toMatch(/^[0-7] then ENOSPC$/);
});

it('the memory of the whole grading is bounded, however many processes share it', async () => {
  const script = [
    'import json, os',
    'kids = []',
    'for _ in range(4):',
    '    pid = os.fork()',
    '    if pid == 0:',
    '        blob = bytearray(150 * 1024 * 1024)',
    '        for i in range(0, len(blob), 4096): blob[i] = 1',
    '        os._exit(0)',
    '    kids.append(pid)',
    'killed = sum(1 for pid in kids if os.WIFSIGNALED(os.waitpid(pid, 0)[1]))',
    resultLine('str(killed)'),
  ].join('\n');
  const r = await grader(sandbox.root, { limits: { gradingMemoryBytes: 256 * 1024 * 1024 } }).grade(scriptJob(script));
  expect(Number(r.comment[0].expl)).toBeGreaterThan(0);
});

it('runs at most maxConcurrent gradings at once; the others wait their turn', async () => {
  const g = grader(sandbox.root, { maxConcurrent: 1 });
  const marker = 'en_CAP';
  const slow = scriptJob(`import json, time\ntime.sleep(1)\n${resultLine('"done"')}`, undefined, marker);
  const all = Promise.all([g.grade(slow), g.grade(slow), g.grade(slow)]);
  let finished = false;
  void all.then(() => (finished = true));
  let most = 0;
  while (!finished) {
    most = Math.max(most, sandboxed(marker).filter((l) => l.includes('python')).length);
    await new Promise((r) => setTimeout(r, 50));
  }
  expect((await all).map((r) => r.comment[0].expl)).toEqual(['done', 'done', 'done']);
  expect(most).toBe(1);
});
