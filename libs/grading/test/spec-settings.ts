/** The grader settings tests start from: the spec's defaults (libs/variant holds the one default of each). */
// eslint-disable-next-line @nx/enforce-module-boundaries
import { archiveBoundsOf, graderSchema, httpSchema, maxConcurrentGradings, warmPoolSize } from '@shellgrade/variant';
import type { ArchiveBounds } from '../src/validate-archive';
import type { GraderOptions, SandboxLimits } from '../src/grader-options';

const spec = graderSchema.parse({});

export const SPEC_LIMITS: SandboxLimits = spec.limits;

/** The archive bounds of a default spec (http.maxArchiveBytes and grader.archive). */
export const SPEC_ARCHIVE_BOUNDS: ArchiveBounds = archiveBoundsOf({ http: httpSchema.parse({}), grader: spec });

/** The grader settings of a default spec on a 2-CPU machine, with some limits changed. */
export const specGraderSettings = (
  limits: Partial<SandboxLimits> = {},
): Pick<GraderOptions, 'limits' | 'cgroups' | 'maxOutputBytes' | 'archive' | 'maxConcurrent' | 'poolSize'> => ({
  limits: { ...spec.limits, ...limits },
  cgroups: spec.cgroups,
  maxOutputBytes: spec.maxOutputBytes,
  archive: SPEC_ARCHIVE_BOUNDS,
  maxConcurrent: maxConcurrentGradings(spec, 2),
  poolSize: warmPoolSize(spec, 2),
});
