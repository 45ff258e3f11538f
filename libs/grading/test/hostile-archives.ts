/** Builds hostile and malformed archives in memory (test fixtures; nothing touches disk). */
import { gzipSync } from 'node:zlib';
import * as tar from 'tar-stream';

export interface FakeEntry {
  name: string;
  type?: tar.Header['type'];
  linkname?: string;
  body?: Buffer | string;
  mode?: number;
}

export async function tarBytes(entries: FakeEntry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pack.on('data', (c: unknown) => void chunks.push(c as Buffer));
    pack.on('end', () => resolve(Buffer.concat(chunks)));
    pack.on('error', reject);
  });
  for (const e of entries) {
    const body = e.body === undefined ? undefined : Buffer.from(e.body);
    const header = { name: e.name, type: e.type ?? 'file', linkname: e.linkname, mode: e.mode ?? 0o644, size: body?.length ?? 0 };
    await new Promise<void>((resolve, reject) => {
      const cb = (err?: Error | null) => (err ? reject(err) : resolve());
      if (body) pack.entry(header, body, cb);
      else pack.entry(header, cb);
    });
  }
  pack.finalize();
  return done;
}

export const tgz = async (entries: FakeEntry[]) => gzipSync(await tarBytes(entries));

/** A valid answer shape used as the base of several cases. */
export const okTree: FakeEntry[] = [
  { name: 'T/', type: 'directory', mode: 0o755 },
  { name: 'T/a.txt', body: 'hello\n' },
];

/** Every hostile case of docs/design.md's Untrusted input, with the error kind and reason it must produce. */
export async function hostileCases(): Promise<{ name: string; bytes: Buffer; kind: string; reason: string; limits?: Record<string, number | string> }[]> {
  const zeros = Buffer.alloc(40 * 1024 * 1024);
  const good = await tgz(okTree);
  const manyEntries = Array.from({ length: 30 }, (_, i) => ({ name: `T/f${i}.txt`, body: 'x' }));
  const incompressible = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 2654435761) >>> 24));
  return [
    { name: 'absolute path', bytes: await tgz([{ name: '/tmp/sg-owned.txt', body: 'x' }]), kind: 'invalid-archive', reason: 'absolute-path' },
    { name: '.. component', bytes: await tgz([...okTree, { name: 'T/../../sg-owned.txt', body: 'x' }]), kind: 'invalid-archive', reason: 'dot-dot' },
    { name: 'symlink leaving the tree', bytes: await tgz([...okTree, { name: 'T/up', type: 'symlink', linkname: '../../..' }]), kind: 'invalid-archive', reason: 'link-escape' },
    { name: 'absolute symlink', bytes: await tgz([...okTree, { name: 'T/pw', type: 'symlink', linkname: '/etc/passwd' }]), kind: 'invalid-archive', reason: 'link-escape' },
    {
      name: 'symlink chain climbing out through an in-tree link',
      bytes: await tgz([...okTree, { name: 'T/d/b', type: 'symlink', linkname: '../..' }, { name: 'T/x', type: 'symlink', linkname: 'd/b/..' }]),
      kind: 'invalid-archive',
      reason: 'link-escape',
    },
    { name: 'hard link leaving the tree', bytes: await tgz([...okTree, { name: 'T/h', type: 'link', linkname: '../etc/passwd' }]), kind: 'invalid-archive', reason: 'link-escape' },
    { name: 'absolute hard link', bytes: await tgz([...okTree, { name: 'T/h', type: 'link', linkname: '/etc/shadow' }]), kind: 'invalid-archive', reason: 'link-escape' },
    { name: 'character device', bytes: await tgz([...okTree, { name: 'T/null', type: 'character-device' }]), kind: 'invalid-archive', reason: 'special-file' },
    { name: 'block device', bytes: await tgz([...okTree, { name: 'T/sda', type: 'block-device' }]), kind: 'invalid-archive', reason: 'special-file' },
    { name: 'fifo', bytes: await tgz([...okTree, { name: 'T/pipe', type: 'fifo' }]), kind: 'invalid-archive', reason: 'special-file' },
    { name: 'too many entries', bytes: await tgz(manyEntries), kind: 'invalid-archive', reason: 'too-many-entries', limits: { maxEntries: 10 } },
    { name: 'gzip bomb', bytes: await tgz([{ name: 'T/zeros', body: zeros }]), kind: 'invalid-archive', reason: 'gzip-bomb' },
    {
      name: 'total uncompressed size over the limit',
      bytes: await tgz([{ name: 'T/noise', body: incompressible }]),
      kind: 'too-large',
      reason: 'uncompressed-too-large',
      limits: { maxUncompressedBytes: 100_000 },
    },
    { name: 'compressed size over the limit', bytes: good, kind: 'too-large', reason: 'compressed-too-large', limits: { maxCompressedBytes: 50 } },
    { name: 'truncated gzip', bytes: good.subarray(0, Math.floor(good.length / 2)), kind: 'invalid-archive', reason: 'truncated' },
    { name: 'not gzip at all', bytes: Buffer.from('PK\u0003\u0004 this is a zip, or anything else'), kind: 'invalid-archive', reason: 'not-gzip' },
    { name: 'empty body', bytes: Buffer.alloc(0), kind: 'invalid-archive', reason: 'not-gzip' },
    { name: 'gzip of something that is not a tar', bytes: gzipSync(Buffer.from('just some text, definitely not a tar header '.repeat(40))), kind: 'invalid-archive', reason: 'not-tar' },
    { name: 'corrupt gzip stream', bytes: corrupt(good), kind: 'invalid-archive', reason: 'corrupt-gzip' },
    { name: 'wrong top folder', bytes: await tgz([{ name: 'OTHER/a.txt', body: 'x' }]), kind: 'invalid-archive', reason: 'bad-top-folder', limits: { expectedTopFolder: 'T' } },
    { name: 'empty archive', bytes: gzipSync(Buffer.alloc(1024)), kind: 'invalid-archive', reason: 'empty' },
    { name: 'name longer than the file system allows', bytes: await tgz([...okTree, { name: `T/${'n'.repeat(300)}`, body: 'x' }]), kind: 'invalid-archive', reason: 'name-too-long' },
    { name: 'path longer than allowed', bytes: await tgz([...okTree, { name: `T/${'d/'.repeat(600)}f`, body: 'x' }]), kind: 'invalid-archive', reason: 'name-too-long' },
    { name: 'unknown entry type (GNU volume header)', bytes: gzipSync(withTypeflag(await tarBytes([...okTree, { name: 'T/v', body: 'x' }]), 2, 'V')), kind: 'invalid-archive', reason: 'unknown-type' },
    { name: 'unknown entry type (vendor extension)', bytes: gzipSync(withTypeflag(await tarBytes([...okTree, { name: 'T/z', body: 'x' }]), 2, 'Z')), kind: 'invalid-archive', reason: 'unknown-type' },
    { name: 'a file used as a folder', bytes: await tgz([...okTree, { name: 'T/a.txt/inner', body: 'x' }]), kind: 'invalid-archive', reason: 'path-conflict' },
    { name: 'a folder stored again as a file', bytes: await tgz([...okTree, { name: 'T/d/', type: 'directory' }, { name: 'T/d', body: 'x' }]), kind: 'invalid-archive', reason: 'path-conflict' },
    { name: 'hard link to a missing entry', bytes: await tgz([...okTree, { name: 'T/h', type: 'link', linkname: 'T/nothing' }]), kind: 'invalid-archive', reason: 'link-target-missing' },
  ];
}

/** Rewrites the type flag of the `index`-th header of a tar (each entry here is one header + at most one data block). */
function withTypeflag(tarBuf: Buffer, index: number, flag: string): Buffer {
  const copy = Buffer.from(tarBuf);
  let offset = 0;
  for (let i = 0; i < index; i++) offset += 512 + Math.ceil(parseInt(copy.toString('ascii', offset + 124, offset + 135), 8) / 512) * 512;
  copy.write(flag, offset + 156, 'ascii');
  copy.fill(' ', offset + 148, offset + 156);
  let sum = 0;
  for (let i = offset; i < offset + 512; i++) sum += copy[i];
  copy.write(`${sum.toString(8).padStart(6, '0')}\0 `, offset + 148, 'ascii');
  return copy;
}

function corrupt(gz: Buffer): Buffer {
  const copy = Buffer.from(gz);
  for (let i = 12; i < copy.length - 8; i += 3) copy[i] ^= 0xff;
  return copy;
}
