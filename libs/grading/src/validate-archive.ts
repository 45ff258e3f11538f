/**
 * Validates a student .tar.gz in memory before anything touches disk (docs/design.md, Untrusted input).
 * gunzip and tar parsing are streamed and stop as soon as a limit is crossed, so a gzip
 * bomb is never inflated further than the limit. Below: the bounds it applies, and the path
 * rules of its entries (one file: one archive check, so a change to it is read in one place).
 */
import { Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import * as tar from 'tar-stream';
import { DomainError } from '@shellgrade/domain';

export type ArchiveEntryType = 'file' | 'directory' | 'symlink' | 'link';

export interface ArchiveEntry {
  /** Normalised path (no leading './', no trailing '/'). */
  path: string;
  type: ArchiveEntryType;
  size: number;
  mode: number;
  linkname?: string;
}

export interface ArchiveInfo {
  compressedBytes: number;
  uncompressedBytes: number;
  entries: ArchiveEntry[];
  /** Distinct first path components (normally one: the exercise's top folder). */
  topLevel: string[];
}

const ACCEPTED_TYPES: Record<string, ArchiveEntryType> = {
  file: 'file',
  'contiguous-file': 'file',
  directory: 'directory',
  symlink: 'symlink',
  link: 'link',
};

/** Entry names as shown to a student: a hostile name may be kilobytes long or hold control characters. */
export function displayName(name: string): string {
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > 120 ? `${clean.slice(0, 100)}…(${Buffer.byteLength(name)} bytes)` : clean;
}

/**
 * pax keywords a plain `tar` writes, each with the syntax both readers parse alike. Any other
 * keyword (GNU.sparse.* renames a member in Python's tarfile and not here, hdrcharset changes how
 * names decode, ...) is refused: the sandbox's reader must see exactly the tree checked here.
 * Extended attributes (macOS tar) are inert for both readers.
 */
const PAX_SYNTAX: Record<string, RegExp> = {
  path: /^[^\0]+$/,
  linkpath: /^[^\0]+$/,
  size: /^\d{1,15}$/,
  mtime: /^-?\d{1,15}(\.\d{1,9})?$/,
  atime: /^-?\d{1,15}(\.\d{1,9})?$/,
  ctime: /^-?\d{1,15}(\.\d{1,9})?$/,
  uid: /^\d{1,15}$/,
  gid: /^\d{1,15}$/,
  uname: /^[^\0]*$/,
  gname: /^[^\0]*$/,
};
const INERT_PAX_PREFIXES = ['LIBARCHIVE.xattr.', 'SCHILY.xattr.'];

/** Why a pax record set is refused, or undefined. */
function paxProblem(pax: Record<string, string> | undefined | null): string | undefined {
  for (const [keyword, value] of Object.entries(pax ?? {})) {
    if (INERT_PAX_PREFIXES.some((p) => keyword.startsWith(p))) continue;
    const syntax = PAX_SYNTAX[keyword];
    if (syntax === undefined) return `carries the tar extension "${displayName(keyword)}", which is not allowed`;
    if (!syntax.test(value)) return `carries an invalid "${keyword}" record`;
  }
  return undefined;
}

/** tar-stream keeps a global pax header to itself (and applies it only to entries with their own pax header): look. */
const sawGlobalPaxHeader = (extract: tar.Extract): boolean => (extract as unknown as { _paxGlobal: unknown })._paxGlobal != null;

const invalid = (reason: string, message: string, entry?: string) =>
  new DomainError('invalid-archive', message, entry === undefined ? { reason } : { reason, entry: displayName(entry) });

const tooLarge = (reason: string, message: string, limit: number) =>
  new DomainError('too-large', message, { reason, limit });

/** Checks `bytes` against the given bounds (the spec's), narrowed by `overrides` (e.g. an exercise's top folder). */
export function validateArchive(bytes: Buffer, bounds: ArchiveBounds, overrides: Partial<ArchiveLimits> = {}): Promise<ArchiveInfo> {
  const lim = resolveArchiveLimits(bounds, overrides);
  if (bytes.length > lim.maxCompressedBytes) {
    return Promise.reject(
      tooLarge('compressed-too-large', `archive is ${bytes.length} bytes, the limit is ${lim.maxCompressedBytes}`, lim.maxCompressedBytes),
    );
  }
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) {
    return Promise.reject(invalid('not-gzip', 'the submission is not a gzip-compressed file (.tar.gz expected)'));
  }
  return parse(bytes, lim);
}

function parse(bytes: Buffer, lim: ArchiveLimits): Promise<ArchiveInfo> {
  return new Promise((resolve, reject) => {
    let inflated = 0;
    const entries: ArchiveEntry[] = [];
    // Our own verdict wins over the generic stream error that aborting the pipeline causes.
    let verdict: DomainError | undefined;
    const stop = (e: DomainError) => (verdict ??= e);

    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        inflated += chunk.length;
        if (inflated > lim.maxUncompressedBytes) {
          return done(stop(tooLarge('uncompressed-too-large', `archive inflates beyond ${lim.maxUncompressedBytes} bytes`, lim.maxUncompressedBytes)));
        }
        if (inflated > lim.ratioCheckFloorBytes && inflated / bytes.length > lim.maxCompressionRatio) {
          return done(stop(invalid('gzip-bomb', `compression ratio above ${lim.maxCompressionRatio}:1, refusing a likely gzip bomb`)));
        }
        done(null, chunk);
      },
    });

    const extract = tar.extract();
    let seen = 0;
    extract.on('entry', (header, body, next) => {
      const problem = sawGlobalPaxHeader(extract)
        ? invalid('tar-extension', 'the archive carries a global pax header, which is not allowed: create it with a plain `tar czf`')
        : checkHeader(header, ++seen, lim);
      body.on('error', () => undefined); // destroying the extractor errors the open entry
      if (problem instanceof DomainError) return settle(stop(problem));
      if (problem) entries.push(problem);
      body.on('end', () => next());
      body.resume();
    });

    // tar-stream is a streamx Writable: node's pipeline() mis-ends it, .pipe() is what it supports.
    const gunzip = createGunzip();
    let settled = false;
    const settle = (err: unknown) => {
      if (settled) return;
      settled = true;
      gunzip.destroy();
      meter.destroy();
      extract.destroy();
      if (verdict ?? err) return reject(verdict ?? classify(err));
      try {
        resolve(finish(entries, bytes.length, inflated));
      } catch (e) {
        reject(e);
      }
    };
    gunzip.on('error', settle);
    meter.on('error', settle);
    extract.on('error', settle);
    extract.on('finish', () => settle(undefined));
    gunzip.pipe(meter).pipe(extract);
    gunzip.end(bytes);
  });
}

/** The entry, a rejection, or null for the archive's own root folder ("./" from `tar czf x.tgz .`). */
function checkHeader(header: tar.Header, seen: number, lim: ArchiveLimits): ArchiveEntry | DomainError | null {
  if (seen > lim.maxEntries) return invalid('too-many-entries', `archive has more than ${lim.maxEntries} entries`);
  const shown = displayName(header.name);
  // tar-stream reports a type flag it does not know as null: never guess "regular file"
  if (header.type === null || header.type === undefined) {
    return invalid('unknown-type', `entry "${shown}" has an unknown tar entry type: only files, folders and links are allowed`, header.name);
  }
  const type = ACCEPTED_TYPES[header.type];
  if (type === undefined) {
    return invalid('special-file', `entry "${shown}" is a ${header.type}: only files, folders and links are allowed`, header.name);
  }
  const extension = paxProblem(header.pax as Record<string, string> | undefined);
  if (extension) return invalid('tar-extension', `entry "${shown}" ${extension}: create the archive with a plain \`tar czf\``, header.name);
  const name = checkEntryName(header.name);
  if (!name.ok && name.reason === 'empty-name' && type === 'directory') return null;
  if (!name.ok) {
    const why = { 'absolute-path': 'is an absolute path', 'dot-dot': 'contains a ".." component', 'empty-name': 'has an empty name' }[name.reason];
    return invalid(name.reason, `entry "${shown}" ${why}`, header.name);
  }
  const tooLong = nameTooLong(name.parts, header.linkname, lim);
  if (tooLong) return invalid('name-too-long', `entry "${shown}" ${tooLong}`, header.name);
  const entry: ArchiveEntry = { path: name.parts.join('/'), type, size: header.size ?? 0, mode: header.mode ?? 0 };
  if (type === 'symlink' || type === 'link') {
    if (!header.linkname) return invalid('empty-link', `link "${shown}" has no target`, header.name);
    entry.linkname = header.linkname;
  }
  if (lim.expectedTopFolder !== undefined && name.parts[0] !== lim.expectedTopFolder) {
    return invalid('bad-top-folder', `entry "${shown}" is outside the expected top folder "${lim.expectedTopFolder}/"`, header.name);
  }
  return entry;
}

/** Names a file system cannot hold (the grader's extraction would fail on them). */
function nameTooLong(parts: string[], linkname: string | null | undefined, lim: ArchiveLimits): string | undefined {
  const longest = Math.max(...parts.map((p) => Buffer.byteLength(p)));
  if (longest > lim.maxNameBytes) return `has a name of ${longest} bytes: file and folder names are limited to ${lim.maxNameBytes}`;
  const total = Buffer.byteLength(parts.join('/'));
  if (total > lim.maxPathBytes) return `has a path of ${total} bytes: paths are limited to ${lim.maxPathBytes}`;
  if (linkname && Buffer.byteLength(linkname) > lim.maxPathBytes) return `links to a target longer than ${lim.maxPathBytes} bytes`;
  return undefined;
}

/** Link checks need the whole tree: a link may point at an entry that comes later. */
function finish(entries: ArchiveEntry[], compressed: number, inflated: number): ArchiveInfo {
  if (entries.length === 0) throw invalid('empty', 'the archive contains no entries');
  checkConflicts(entries);
  const links = new Map(entries.filter((e) => e.type === 'symlink').map((e) => [e.path, e.linkname as string]));
  for (const e of entries) {
    const parts = e.path.split('/');
    const parent = resolveInTree(parts.slice(0, -1), links);
    if (!parent.ok) return fail(`entry "${e.path}" is reached through a link that leaves the archive`, e.path, parent.reason);
    if (e.type === 'symlink') {
      if ((e.linkname as string).startsWith('/')) return fail(`symlink "${e.path}" has an absolute target`, e.path, 'escape');
      const target = resolveInTree([...parent.parts, ...(e.linkname as string).split('/')], links);
      if (!target.ok) return fail(`symlink "${e.path}" -> "${e.linkname}" leaves the archive`, e.path, target.reason);
    }
    if (e.type === 'link') {
      const target = checkEntryName(e.linkname as string);
      const resolved = target.ok ? resolveInTree(target.parts, links) : { ok: false as const, reason: 'escape' as const };
      if (!resolved.ok) return fail(`hard link "${e.path}" -> "${e.linkname}" leaves the archive`, e.path, resolved.reason);
    }
  }
  const topLevel = [...new Set(entries.map((e) => e.path.split('/')[0]))];
  return { compressedBytes: compressed, uncompressedBytes: inflated, entries, topLevel };

  function fail(message: string, entry: string, reason: 'escape' | 'loop'): never {
    throw invalid(reason === 'loop' ? 'link-loop' : 'link-escape', message, entry);
  }
}

/**
 * Trees that cannot be extracted: a file (or hard link) used as a folder, the same name as a
 * folder and as something else, a hard link to an entry that is not stored before it.
 */
function checkConflicts(entries: ArchiveEntry[]): void {
  const kinds = new Map<string, ArchiveEntryType>();
  for (const e of entries) {
    const parts = e.path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const parent = kinds.get(parts.slice(0, i).join('/'));
      if (parent === 'file' || parent === 'link') {
        throw invalid('path-conflict', `entry "${displayName(e.path)}" is inside "${displayName(parts.slice(0, i).join('/'))}", which is a file, not a folder`, e.path);
      }
    }
    const before = kinds.get(e.path);
    // Two readers may keep a different copy of a name stored twice (first or last): one per name.
    if (before !== undefined && before !== 'directory' && e.type !== 'directory') {
      throw invalid('duplicate-entry', `entry "${displayName(e.path)}" is stored twice in the archive`, e.path);
    }
    if (before !== undefined && (before === 'directory') !== (e.type === 'directory')) {
      throw invalid('path-conflict', `entry "${displayName(e.path)}" appears both as a folder and as a ${before === 'directory' ? e.type : before}`, e.path);
    }
    if (e.type === 'link') {
      const target = checkEntryName(e.linkname as string);
      const kind = target.ok ? kinds.get(target.parts.join('/')) : 'file'; // (a target leaving the tree: link-escape below)
      if (kind === undefined || kind === 'directory') {
        throw invalid('link-target-missing', `hard link "${displayName(e.path)}" points to "${displayName(e.linkname as string)}", which is not a file stored before it`, e.path);
      }
    }
    kinds.set(e.path, e.type);
  }
}

/** Maps zlib / tar-stream failures to a typed, user-readable error. */
function classify(err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  const e = err as NodeJS.ErrnoException;
  const msg = String(e?.message ?? err);
  if (e?.code === 'Z_BUF_ERROR' || /unexpected end/i.test(msg)) {
    return invalid('truncated', 'the archive is truncated (unexpected end of data)');
  }
  if (typeof e?.code === 'string' && e.code.startsWith('Z_')) {
    return invalid('corrupt-gzip', `the gzip data is corrupt: ${msg}`);
  }
  return invalid('not-tar', `the gzip content is not a valid tar archive: ${msg}`);
}

// ---- The bounds applied to a student archive before anything touches disk (docs/design.md, Untrusted input).

/** The tunable bounds: the spec's http.maxArchiveBytes and grader.archive (their one default). */
export interface ArchiveBounds {
  /** Size of the .tar.gz as received (413 above it). */
  maxCompressedBytes: number;
  /** Total inflated tar stream (413 above it). */
  maxUncompressedBytes: number;
  maxEntries: number;
  /** inflated / compressed above this marks a gzip bomb (422)... */
  maxCompressionRatio: number;
}

export interface ArchiveLimits extends ArchiveBounds {
  /** ...but only once this many bytes were inflated: tiny tars are mostly zero padding. */
  ratioCheckFloorBytes: number;
  /** Bytes of one path component (Linux NAME_MAX: a longer name cannot be created at all). */
  maxNameBytes: number;
  /** Bytes of a whole entry name or link target (well under PATH_MAX once extracted in a job dir). */
  maxPathBytes: number;
  /** When set, every entry must live under this top folder (e.g. "SCRIPTS"). */
  expectedTopFolder?: string;
}

/** Facts of the tar format and the file system, not tunables. */
export const ARCHIVE_FORMAT_LIMITS: Pick<ArchiveLimits, 'ratioCheckFloorBytes' | 'maxNameBytes' | 'maxPathBytes'> = {
  ratioCheckFloorBytes: 1024 * 1024,
  maxNameBytes: 255,
  maxPathBytes: 1024,
};

/** The bounds a caller was given, the format limits, and any narrower overrides (those left undefined are ignored). */
export function resolveArchiveLimits(bounds: ArchiveBounds, overrides: Partial<ArchiveLimits> = {}): ArchiveLimits {
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined));
  return { ...ARCHIVE_FORMAT_LIMITS, ...bounds, ...defined };
}

// ---- Path rules for archive entries, checked on names only (nothing is extracted).
// Symlinks are resolved over the archive's own virtual tree, so a chain of in-tree links
// that finally climbs out of the root is caught, while `ln -s ../data current` stays legal.

const MAX_LINK_HOPS = 40;
/**
 * Bytes of link targets one resolution may expand. Past PATH_MAX (4096) a reader's realpath gives
 * up half-way and reports a path it never reached (CVE-2025-4517): such chains are refused.
 */
const MAX_EXPANDED_BYTES = 4096;

export type PathVerdict = { ok: true; parts: string[] } | { ok: false; reason: 'absolute-path' | 'dot-dot' | 'empty-name' };

/** Splits an entry name into components; `./a/b/` → ['a', 'b']. */
export function checkEntryName(name: string): PathVerdict {
  if (name.startsWith('/')) return { ok: false, reason: 'absolute-path' };
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0) return { ok: false, reason: 'empty-name' };
  if (parts.includes('..')) return { ok: false, reason: 'dot-dot' };
  return { ok: true, parts };
}

export type Resolution = { ok: true; parts: string[] } | { ok: false; reason: 'escape' | 'loop' };

/**
 * Resolves `parts` (relative to the archive root) following the symlinks in `links`
 * (key: entry path joined by '/', value: raw link target). Fails when the walk goes
 * above the root or an absolute target is met.
 */
export function resolveInTree(parts: string[], links: ReadonlyMap<string, string>): Resolution {
  const queue = [...parts];
  const resolved: string[] = [];
  let hops = 0;
  let expanded = parts.join('/').length;
  while (queue.length > 0) {
    const part = queue.shift() as string;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (resolved.length === 0) return { ok: false, reason: 'escape' };
      resolved.pop();
      continue;
    }
    resolved.push(part);
    const target = links.get(resolved.join('/'));
    if (target === undefined) continue;
    expanded += target.length + 1;
    if (++hops > MAX_LINK_HOPS || expanded > MAX_EXPANDED_BYTES) return { ok: false, reason: 'loop' };
    if (target.startsWith('/')) return { ok: false, reason: 'escape' };
    resolved.pop();
    queue.unshift(...target.split('/'));
  }
  return { ok: true, parts: resolved };
}
