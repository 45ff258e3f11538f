/**
 * The statistics' answers as the console receives them: a difference B − A with its interval
 * (libs/stats difference) and a rank test (libs/stats mannWhitney). libs/stats computes them; these
 * schemas are their shape on the wire, inside a comparison, a finding or a faults verdict (a
 * drift between the two fails the typecheck where the harness or the server hands one to the other).
 */
import { z } from 'zod';

const num = z.number().nullable();

/** The difference B − A of one metric between two tests, with its interval over their runs. */
export const differenceSchema = z.object({
  nA: z.number(),
  nB: z.number(),
  meanA: num,
  meanB: num,
  /** meanB − meanA. */
  diff: num,
  /** diff / meanA (null when meanA is 0 or unknown). */
  relative: num,
  /** The 95% interval of diff; null when a side has fewer than two runs. */
  lo: num,
  hi: num,
  /** The interval excludes 0. */
  significant: z.boolean(),
  /** Why no interval could be given, when there is none. */
  note: z.string().optional(),
});
export type DifferenceFigures = z.infer<typeof differenceSchema>;

/** Mann–Whitney U with Cliff's δ. */
export const rankTestSchema = z.object({
  nA: z.number(),
  nB: z.number(),
  /** U of B: pairs (a, b) with b > a, ties counted ½. uA + uB = nA·nB. */
  uB: z.number(),
  uA: z.number(),
  /** Two-sided p-value. */
  p: z.number(),
  method: z.enum(['exact', 'normal']),
  /** Cliff's δ = P(B > A) − P(B < A), in [−1, 1]: positive when B tends to be larger. */
  cliffsDelta: z.number(),
  magnitude: z.enum(['negligible', 'small', 'medium', 'large']),
});
export type RankTestFigures = z.infer<typeof rankTestSchema>;
