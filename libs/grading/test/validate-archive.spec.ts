import { DomainError } from '@shellgrade/domain';
import { checkEntryName, resolveInTree, validateArchive } from '../src/validate-archive';
import { hostileCases, okTree, tgz } from './hostile-archives';
import { SPEC_ARCHIVE_BOUNDS } from './spec-settings';

describe('validateArchive', () => {
  it('accepts a plain answer and reports its entries', async () => {
    const info = await validateArchive(await tgz(okTree), SPEC_ARCHIVE_BOUNDS);
    expect(info.topLevel).toEqual(['T']);
    expect(info.entries.map((e) => [e.path, e.type])).toEqual([
      ['T', 'directory'],
      ['T/a.txt', 'file'],
    ]);
    expect(info.uncompressedBytes).toBeGreaterThan(info.compressedBytes);
  });

  it('accepts symlinks and hard links that stay inside the tree (ln -s is an exercise)', async () => {
    const bytes = await tgz([
      ...okTree,
      { name: 'T/releases/v2/config.txt', body: 'v=2\n' },
      { name: 'T/current', type: 'symlink', linkname: 'releases/v2' },
      { name: 'T/config.txt', type: 'symlink', linkname: 'current/config.txt' },
      { name: 'T/releases/v1', type: 'symlink', linkname: '../releases/v2' },
      { name: 'T/hard.txt', type: 'link', linkname: 'T/a.txt' },
    ]);
    const info = await validateArchive(bytes, SPEC_ARCHIVE_BOUNDS, { expectedTopFolder: 'T' });
    expect(info.entries.filter((e) => e.type === 'symlink')).toHaveLength(3);
  });

  it('accepts the root folder entry of `tar czf answer.tgz .` and ./-prefixed names', async () => {
    const bytes = await tgz([{ name: './', type: 'directory' }, { name: './T/', type: 'directory' }, { name: './T/a.txt', body: 'x' }]);
    const info = await validateArchive(bytes, SPEC_ARCHIVE_BOUNDS, { expectedTopFolder: 'T' });
    expect(info.entries.map((e) => e.path)).toEqual(['T', 'T/a.txt']);
  });

  it('rejects a symlink loop', async () => {
    const bytes = await tgz([...okTree, { name: 'T/a', type: 'symlink', linkname: 'b' }, { name: 'T/b', type: 'symlink', linkname: 'a' }]);
    await expect(validateArchive(bytes, SPEC_ARCHIVE_BOUNDS)).rejects.toMatchObject({ kind: 'invalid-archive', details: { reason: 'link-loop' } });
  });

  it('stops inflating a gzip bomb at the limit instead of inflating it fully', async () => {
    const bomb = (await hostileCases()).find((c) => c.name === 'gzip bomb');
    const before = process.memoryUsage().arrayBuffers;
    const err = await validateArchive(bomb!.bytes, SPEC_ARCHIVE_BOUNDS).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    // 40 MiB of zeros must not have been materialised.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 * 1024);
  });

  describe('hostile archives (docs/design.md, Untrusted input)', () => {
    let cases: Awaited<ReturnType<typeof hostileCases>>;
    beforeAll(async () => {
      cases = await hostileCases();
    });

    it('rejects each with the expected kind, reason and a readable message', async () => {
      for (const c of cases) {
        const err = await validateArchive(c.bytes, SPEC_ARCHIVE_BOUNDS, c.limits).then(
          () => new Error(`${c.name}: accepted`),
          (e: unknown) => e,
        );
        expect({ name: c.name, isDomainError: err instanceof DomainError }).toEqual({ name: c.name, isDomainError: true });
        const d = err as DomainError;
        expect({ name: c.name, kind: d.kind, reason: d.details.reason }).toEqual({ name: c.name, kind: c.kind, reason: c.reason });
        expect(d.message.length).toBeGreaterThan(10);
      }
    });
  });
});

describe('checkEntryName', () => {
  it.each([
    ['./T/a.txt', { ok: true, parts: ['T', 'a.txt'] }],
    ['T/dir/', { ok: true, parts: ['T', 'dir'] }],
    ['/etc/passwd', { ok: false, reason: 'absolute-path' }],
    ['T/../../x', { ok: false, reason: 'dot-dot' }],
    ['./', { ok: false, reason: 'empty-name' }],
  ])('%s', (name, verdict) => expect(checkEntryName(name)).toEqual(verdict));
});

describe('resolveInTree', () => {
  const links = new Map([
    ['T/current', 'releases/v2'],
    ['T/d/up', '..'],
    ['T/loop', 'loop'],
  ]);
  it('follows in-tree links', () => {
    expect(resolveInTree(['T', 'current', 'config.txt'], links)).toEqual({ ok: true, parts: ['T', 'releases', 'v2', 'config.txt'] });
    expect(resolveInTree(['T', 'd', 'up', 'a'], links)).toEqual({ ok: true, parts: ['T', 'a'] });
  });
  it('catches a walk above the root, even through links', () => {
    expect(resolveInTree(['T', 'd', 'up', '..', '..'], links)).toEqual({ ok: false, reason: 'escape' });
  });
  it('catches loops', () => {
    expect(resolveInTree(['T', 'loop'], links)).toEqual({ ok: false, reason: 'loop' });
  });
});
