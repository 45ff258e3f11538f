/** The grader settings tests start from: the spec's defaults (libs/variant holds the one default of each). */
// eslint-disable-next-line @nx/enforce-module-boundaries
import { graderSchema } from '@shellgrade/variant';
import type { GraderOptions, SandboxLimits } from '../src/grader-options';

const spec = graderSchema.parse({});

export const SPEC_LIMITS: SandboxLimits = spec.limits;

/** limits, cgroups and output bound as a default spec sets them, with some limits changed. */
export const specGraderSettings = (limits: Partial<SandboxLimits> = {}): Pick<GraderOptions, 'limits' | 'cgroups' | 'maxOutputBytes'> => ({
  limits: { ...spec.limits, ...limits },
  cgroups: spec.cgroups,
  maxOutputBytes: spec.maxOutputBytes,
});
