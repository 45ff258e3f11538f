/**
 * Paper 003's patterns as pairs of presets run with the same mix: the pattern's variant and the
 * baseline it changes one thing of (test: libs/variant/test/derived-presets.spec.ts), with the
 * two request types benchmarks/mix.js sends for it.
 */
export type MixPattern = 'aggregation' | 'offloading' | 'pipeline';
export const MIX_PATTERNS: MixPattern[] = ['aggregation', 'offloading', 'pipeline'];

export interface PatternPlan {
  pattern: MixPattern;
  /** The variant with the pattern, then its baseline. */
  variants: [withPattern: string, baseline: string];
  r1: string;
  r2: string;
}

export const PATTERN_PLANS: Record<MixPattern, PatternPlan> = {
  aggregation: {
    pattern: 'aggregation',
    variants: ['msa-aggregation-1-2', 'msa-1-2'],
    r1: "the student's dashboard: one GET /api/dashboard aggregated at the gateway, or three calls made by the client",
    r2: 'a submission of a correct archive (graded by the exercise service)',
  },
  offloading: {
    pattern: 'offloading',
    variants: ['msa-offloading-1-2', 'msa-1-2'],
    r1: 'GET /api/user/me (leftover service)',
    r2: 'GET /api/student-statements (exercise service)',
  },
  pipeline: {
    pattern: 'pipeline',
    variants: ['msa-pipeline-1-2', 'msa-rabbitmq-1-2'],
    r1: 'a submission of a correct archive (every check runs)',
    r2: 'a submission of a wrong archive (grading stops at the first failed check)',
  },
};

export function patternPlan(name: string): PatternPlan {
  const plan = PATTERN_PLANS[name as MixPattern];
  if (!plan) throw new Error(`unknown pattern "${name}" (known: ${MIX_PATTERNS.join(', ')})`);
  return plan;
}
