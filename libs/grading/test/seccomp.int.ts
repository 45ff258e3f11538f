/**
 * No kernel state shared between gradings, no process inspection (docs/design.md, Untrusted input):
 * under the sandboxes' system-call filter a grader and a student script cannot store a key in
 * their uid's kernel keyring (which every grading of that uid would read), nor ptrace anything.
 * Two gradings in a row, one worker: the first tries to leave a key (from the grader and from a
 * student script), the second looks for it. Beyond those, the calls Docker's default profile also
 * refuses a container without extra capabilities (NUMA placement, host names...). Every exec mode.
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

/**
 * Python that reports, as JSON, what each call beyond the keyrings and ptrace gave (errno name, or
 * "ok"). Arguments that change nothing even where the call is allowed: empty ranges, the default
 * policy, a host name too long to be set (EINVAL when allowed).
 */
const kernelStateProbe = `
import ctypes, errno, json
libc = ctypes.CDLL(None, use_errno=True)
AF_VSOCK, SOCK_STREAM = 40, 1
CALLS = {
    "mbind": (237, 0, 0, 0, 0, 0, 0), "set_mempolicy": (238, 0, 0, 0), "migrate_pages": (256, 0, 0, 0, 0),
    "move_pages": (279, 0, 0, 0, 0, 0, 0), "set_mempolicy_home_node": (450, 0, 0, 0, 0), "process_madvise": (440, -1, 0, 0, 0, 0),
    "memfd_secret": (447, 0), "sethostname": (170, 0, 65), "setdomainname": (171, 0, 65), "socket(AF_VSOCK)": (41, AF_VSOCK, SOCK_STREAM, 0),
}
def call(args):
    r = libc.syscall(*[ctypes.c_long(a) for a in args])
    return "ok" if r >= 0 else errno.errorcode.get(ctypes.get_errno(), "?")
print(json.dumps({name: call(args) for name, args in CALLS.items()}))
`;
const DENIED_BEYOND_KEYRINGS = ['mbind', 'set_mempolicy', 'migrate_pages', 'move_pages', 'set_mempolicy_home_node', 'process_madvise', 'memfd_secret', 'sethostname', 'setdomainname', 'socket(AF_VSOCK)'];

/** A grader that runs `probe` itself (as the grader uid), then as a student script (as the student uid). */
const graderRunning = (probe: string) => `
import json, os, subprocess, sys
from pathlib import Path
from shellgrade_grader import run_script
os.makedirs("/job/student", exist_ok=True)
script = Path("/job/student/probe.py")
script.write_text("#!/usr/bin/python3 -S\\n" + ${JSON.stringify(probe)})
script.chmod(0o755)
as_grader = subprocess.run([sys.executable, "-S", str(script)], capture_output=True, text=True).stdout.strip()
as_student = run_script(script, timeout=10).stdout.strip()
print(json.dumps({"grade": 0, "comment": [{"numQ": 1, "verif": "grader", "status": "NOT OK", "expl": as_grader},
                                          {"numQ": 2, "verif": "student", "status": "NOT OK", "expl": as_student}]}))
`;

const graderOf = (action: 'store' | 'find') => graderRunning(probe(action));

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

  it("refuses NUMA placement, another process's memory advice, secret memory, host names and hypervisor sockets (EPERM)", async () => {
    const g = grader(sandbox.root, { exec, maxConcurrent: 1, poolSize: 1 });
    const result = await g.grade(scriptJob(graderRunning(kernelStateProbe)));
    const [byGrader, byStudent] = result.comment.map((c) => JSON.parse(c.expl));
    const refused = Object.fromEntries(DENIED_BEYOND_KEYRINGS.map((name) => [name, 'EPERM']));
    expect({ byGrader, byStudent }).toEqual({ byGrader: refused, byStudent: refused });
  });
});
