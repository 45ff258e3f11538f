/** The sandbox root is the service user's own folder, never one somebody else prepared. */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxGrader } from '../src/sandbox-grader';
import { asyncJobRunner } from '../src/process-runner';
import { PYTHON } from './sandbox-helpers';
import { specGraderSettings } from './spec-settings';

/** What a service does at start-up: build its grader on the configured root. */
const prepareSandboxRoot = (sandboxRoot: string) => new SandboxGrader({ python: PYTHON, sandboxRoot, timeoutMs: 1000, isolation: 'bwrap', ...specGraderSettings() }, asyncJobRunner);

const base = mkdtempSync(join(tmpdir(), 'sg-root-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('a grader started on a sandbox root', () => {
  it('creates a missing root (and its parents) as a 0700 folder of the service user', () => {
    const root = join(base, 'fresh', 'sandbox');
    prepareSandboxRoot(root);
    const st = statSync(root);
    expect({ mode: st.mode & 0o7777, uid: st.uid }).toEqual({ mode: 0o700, uid: process.getuid!() });
  });

  it('accepts an existing root of its own that nobody else can write', () => {
    const root = join(base, 'mine');
    mkdirSync(root, { mode: 0o755 });
    chmodSync(root, 0o755);
    expect(() => prepareSandboxRoot(root)).not.toThrow();
  });

  it('refuses a root another user created (e.g. pre-created in /tmp)', () => {
    const root = join(base, 'planted');
    mkdirSync(root, { mode: 0o700 });
    chownSync(root, 65534, 65534);
    expect(() => prepareSandboxRoot(root)).toThrow(/owned by uid 65534, not by the service user/);
  });

  it('refuses a world- or group-writable root, and a symlink standing in for it', () => {
    const open = join(base, 'open');
    mkdirSync(open);
    chmodSync(open, 0o1777);
    expect(() => prepareSandboxRoot(open)).toThrow(/writable by everyone/);
    const group = join(base, 'group');
    mkdirSync(group);
    chmodSync(group, 0o770);
    expect(() => prepareSandboxRoot(group)).toThrow(/writable by its group/);
    const link = join(base, 'link');
    symlinkSync(join(base, 'mine'), link);
    expect(() => prepareSandboxRoot(link)).toThrow(/not a plain folder/);
  });
});
