/** Bounds applied to a student archive before anything touches disk (DESIGN §8). */

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
