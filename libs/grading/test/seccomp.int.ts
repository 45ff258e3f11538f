/**
 * No kernel state shared between gradings, no process inspection (issue 34 item 2, DESIGN §8):
 * under the sandboxes' system-call filter a grader and a student script cannot store a key in
 * their uid's kernel keyring (which every grading of that uid would read), nor ptrace anything.
 * Two gradings in a row, one worker: the first tries to leave a key (from the grader and from a
 * student script), the second looks for it. Every exec mode.
 */
import { randomBytes } from 'node:crypto';
import type { ExecMode } from '../src/grader-options';
import { closeGraders, grader, makeSandboxRoot, scriptJob } from './sandbox-helpers';

jest.setTimeout(60_000);

const KEY = `sg-channel-${randomBytes(6).toString('hex')}`; // a fresh name: a key left by an earlier run cannot answer

/** Python that reports, as JSON, what the keyring and ptrace calls gave (errno names, or the key's content). */
const probe = (action: 'store' | 'find') => `
import ctypes, errno, json, os
libc = ctypes.CDLL(None, use_errno=True)
SYS_ADD_KEY, SYS_KEYCTL, SYS_PTRACE = 248, 250, 101
KEY_SPEC_USER_KEYRING, KEYCTL_SEARCH, KEYCTL_READ, PTRACE_TRACEME = -4, 10, 11, 0
def call(*args):
    r = libc.syscall(*args)
    return r if r >= 0 else errno.errorcode.get(ctypes.get_errno(), "?")
out = {}
if "${action}" == "store":
    out["add_key"] = call(SYS_ADD_KEY, b"user", b"${KEY}", b"secret", 6, KEY_SPEC_USER_KEYRING)
    out["ptrace"] = call(SYS_PTRACE, PTRACE_TRACEME, 0, 0, 0)
else:
    found = call(SYS_KEYCTL, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, b"user", b"${KEY}", 0)
    buf = ctypes.create_string_buffer(64)
    out["found"] = ctypes.string_at(buf, call(SYS_KEYCTL, KEYCTL_READ, found, buf, 64)).decode() if isinstance(found, int) else found
print(json.dumps(out))
`;

/** The grader runs the probe itself (as the grader uid), then as a student script (as the student uid). */
const graderOf = (action: 'store' | 'find') => `
import json, os, subprocess, sys
from pathlib import Path
from shellgrade_grader import run_script
os.makedirs("/job/student", exist_ok=True)
script = Path("/job/student/probe.py")
script.write_text("#!/usr/bin/python3 -S\\n" + ${JSON.stringify(probe(action))})
script.chmod(0o755)
as_grader = subprocess.run([sys.executable, "-S", str(script)], capture_output=True, text=True).stdout.strip()
as_student = run_script(script, timeout=10).stdout.strip()
print(json.dumps({"grade": 0, "comment": [{"numQ": 1, "verif": "grader", "status": "NOT OK", "expl": as_grader},
                                          {"numQ": 2, "verif": "student", "status": "NOT OK", "expl": as_student}]}))
`;

const sandbox = makeSandboxRoot('seccomp');
afterAll(() => sandbox.cleanup());
afterEach(async () => {
  await closeGraders();
  expect(sandbox.leftovers()).toEqual([]);
});

describe.each<[ExecMode]>([['async'], ['blocking'], ['pool'], ['zygote']])('system-call filter, exec %s', (exec) => {
  it('a key one grading stores is invisible to the next, and ptrace is refused', async () => {
    const g = grader(sandbox.root, { exec, maxConcurrent: 1, poolSize: 1 });
    const first = await g.grade(scriptJob(graderOf('store')));
    const second = await g.grade(scriptJob(graderOf('find')));
    const [storedByGrader, storedByStudent] = first.comment.map((c) => JSON.parse(c.expl));
    const [foundByGrader, foundByStudent] = second.comment.map((c) => JSON.parse(c.expl));
    expect({ storedByGrader, storedByStudent }).toEqual({
      storedByGrader: { add_key: 'EPERM', ptrace: 'EPERM' },
      storedByStudent: { add_key: 'EPERM', ptrace: 'EPERM' },
    });
    expect({ foundByGrader, foundByStudent }).toEqual({ foundByGrader: { found: 'EPERM' }, foundByStudent: { found: 'EPERM' } });
  });
});
