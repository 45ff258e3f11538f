/**
 * Path rules for archive entries, checked on names only (nothing is extracted).
 * Symlinks are resolved over the archive's own virtual tree, so a chain of in-tree links
 * that finally climbs out of the root is caught, while `ln -s ../data current` stays legal.
 */
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
