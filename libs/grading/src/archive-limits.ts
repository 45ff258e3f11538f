/** Bounds applied to a student archive before anything touches disk (DESIGN §8). */
export interface ArchiveLimits {
  /** Size of the .tar.gz as received (413 above it). */
  maxCompressedBytes: number;
  /** Total inflated tar stream (413 above it). */
  maxUncompressedBytes: number;
  maxEntries: number;
  /** inflated / compressed above this marks a gzip bomb (422)... */
  maxCompressionRatio: number;
  /** ...but only once this many bytes were inflated: tiny tars are mostly zero padding. */
  ratioCheckFloorBytes: number;
  /** Bytes of one path component (Linux NAME_MAX: a longer name cannot be created at all). */
  maxNameBytes: number;
  /** Bytes of a whole entry name or link target (well under PATH_MAX once extracted in a job dir). */
  maxPathBytes: number;
  /** When set, every entry must live under this top folder (e.g. "SCRIPTS"). */
  expectedTopFolder?: string;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxCompressedBytes: 1024 * 1024,
  maxUncompressedBytes: 32 * 1024 * 1024,
  maxEntries: 2000,
  maxCompressionRatio: 200,
  ratioCheckFloorBytes: 1024 * 1024,
  maxNameBytes: 255,
  maxPathBytes: 1024,
};

export function resolveArchiveLimits(overrides: Partial<ArchiveLimits> = {}): ArchiveLimits {
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined));
  return { ...DEFAULT_ARCHIVE_LIMITS, ...defined };
}
