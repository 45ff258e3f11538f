/**
 * One reader decides (docs/design.md, Untrusted input): archives that two tar readers may read
 * differently (fixtures/differential_corpus.py) go through the real grader in every exec mode.
 * Each must be refused as an invalid archive (a 422 for the student) or extracted exactly as the
 * service's validator read it; the paper's grader never sees a forged reference script, and the
 * reference material on the host is byte-for-byte what it was.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DomainError, type GradingResult } from '@shellgrade/domain';
import { catalogDir } from '../src/assets';
import { type ArchiveInfo, validateArchive } from '../src/validate-archive';
import type { ExecMode } from '../src/grader-options';
import { catalogJob, closeGraders, grader, makeSandboxRoot, PYTHON, scriptJob } from './sandbox-helpers';
import { SPEC_ARCHIVE_BOUNDS } from './spec-settings';

jest.setTimeout(120_000);

interface Case {
  name: string;
  bytes: Buffer;
}
const corpus: Case[] = (
  JSON.parse(execFileSync(PYTHON, [join(__dirname, 'fixtures', 'differential_corpus.py')], { encoding: 'utf8' })) as { name: string; tgz: string }[]
).map((c) => ({ name: c.name, bytes: Buffer.from(c.tgz, 'base64') }));

/** A grader that extracts the submission as every grader does and reports the tree it got. */
const TREE_GRADER = `
import hashlib, json, os
from pathlib import Path
from shellgrade_grader import Grading
g = Grading.from_argv()
g.submission_root("SCRIPTS")  # extracts as every grader does (or refuses the archive: exit 65, a 422)
dest = Path("submission")
tree = []
for here, dirs, files in os.walk(dest):
    for name in dirs + files:
        p = Path(here) / name
        kind = "symlink" if p.is_symlink() else "directory" if p.is_dir() else "file"
        tree.append([str(p.relative_to(dest)), kind, os.readlink(p) if kind == "symlink" else ""])
text = json.dumps(sorted(tree), separators=(",", ":"))
print(json.dumps({"grade": 100, "comment": [{"numQ": 1, "verif": "tree", "status": "OK", "expl": hashlib.sha256(text.encode()).hexdigest()},
                                            {"numQ": 2, "verif": "tree head", "status": "OK", "expl": text[:400]}]}))
`;

/** The tree the validator's entries describe: hard links land as files, parents exist. */
function validatedTree(info: ArchiveInfo): string {
  const tree = new Map<string, [string, string, string]>();
  for (const e of info.entries) {
    const parts = e.path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (!tree.has(dir)) tree.set(dir, [dir, 'directory', '']);
    }
    const kind = e.type === 'link' ? 'file' : e.type;
    tree.set(e.path, [e.path, kind, e.type === 'symlink' ? (e.linkname as string) : '']);
  }
  const sorted = [...tree.values()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return JSON.stringify(sorted);
}

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** Every file of the reference material the paper's grader uses (question archive, grader, statement). */
function referenceHashes(): Record<string, string> {
  const dirs = [join(catalogDir(), 'paper-scripts'), join(catalogDir(), 'build', 'paper-scripts')];
  return Object.fromEntries(
    dirs.flatMap((dir) => readdirSync(dir, { withFileTypes: true }).filter((f) => f.isFile()).map((f) => [join(dir, f.name), sha256(readFileSync(join(dir, f.name)))])),
  );
}

const refusedAsInvalid = (e: unknown) => e instanceof DomainError && e.kind === 'invalid-archive';

const sandbox = makeSandboxRoot('differential');
const referenceBefore = referenceHashes();
afterAll(async () => {
  await closeGraders();
  sandbox.cleanup();
});

describe.each<[ExecMode]>([['async'], ['blocking'], ['pool'], ['zygote']])('differential archives, exec %s', (exec) => {
  const g = () => grader(sandbox.root, { exec });
  let shared: ReturnType<typeof grader> | undefined;
  beforeAll(() => {
    shared = g();
  });

  it.each(corpus.map((c) => [c.name, c] as const))('%s: refused as invalid, or extracted exactly as validated', async (_name, c) => {
    const validated = await validateArchive(c.bytes, SPEC_ARCHIVE_BOUNDS).catch((e: unknown) => e);
    const graded: GradingResult | Error = await shared!.grade(scriptJob(TREE_GRADER, c.bytes)).catch((e: Error) => e);
    if (process.env.SG_SHOW_CORPUS) console.log(`${exec} | ${c.name} | ${graded instanceof DomainError ? `${graded.kind} ${JSON.stringify(graded.details)}` : validated instanceof Error ? 'accepted?!' : 'extracted'}`);
    if (graded instanceof Error) {
      expect({ refused: refusedAsInvalid(graded), message: graded.message }).toEqual({ refused: true, message: expect.any(String) });
      return;
    }
    expect(validated).not.toBeInstanceOf(Error);
    const expected = validatedTree(validated as ArchiveInfo);
    expect({ hash: graded.comment[0].expl, head: graded.comment[1].expl }).toEqual({ hash: sha256(expected), head: expected.slice(0, 400) });
  });

  it.each(corpus.map((c) => [c.name, c] as const))('%s: the paper grader never takes a forged reference', async (_name, c) => {
    const graded: GradingResult | Error = await shared!.grade(catalogJob('paper-scripts', c.bytes)).catch((e: Error) => e);
    if (graded instanceof Error) {
      expect(refusedAsInvalid(graded)).toBe(true);
      return;
    }
    // answers.txt line 1 says "forged": only a replaced ckiki.sh would print that
    expect(graded.comment.find((item) => item.numQ === 1)?.status).not.toBe('OK');
  });

  it('leaves the reference material on the host unchanged', () => {
    expect(referenceHashes()).toEqual(referenceBefore);
  });
});
