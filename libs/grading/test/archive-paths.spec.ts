import { checkEntryName, resolveInTree } from '../src/validate-archive';

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
