/**
 * Object keys of submission archives. The key is derived from the production id alone,
 * so a broker message that carries only the id (or the key) is enough to find the bytes.
 */
export const PRODUCTIONS_PREFIX = 'productions/';

export const productionObjectKey = (productionId: number): string => `${PRODUCTIONS_PREFIX}${productionId}.tar.gz`;

/** The production id a key was derived from, or null for a key we did not write. */
export function productionIdOfKey(key: string): number | null {
  const match = /^productions\/(\d+)\.tar\.gz$/.exec(key);
  if (!match) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) ? id : null;
}
