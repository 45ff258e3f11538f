// The order cells run in: rounds, each visiting the variants still running in a random order
// and, within a variant, its load levels in a random order (one bring-up serves a variant's
// levels; the randomization spreads drift of the machine over every cell instead of letting it
// fall on whichever cell ran last). Seeded Mersenne Twister: the seed in findings.json replays it.
import mt19937 from '@stdlib/random-base-mt19937';
import type { LoadLevel } from './loads';

export interface CellId {
  variant: string;
  level: LoadLevel;
}

export const cellKey = (c: CellId): string => `${c.variant}@${c.level}`;

export type Rng = () => number;

export function seededRng(seed: number): Rng {
  const gen = mt19937.factory({ seed: seed >>> 0 });
  // A uint32 scaled to [0, 1).
  return () => gen() / 2 ** 32;
}

/** Fisher–Yates on a copy. */
export function shuffle<T>(xs: readonly T[], rng: Rng): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** One round's order over the active cells: variants shuffled, each variant's levels shuffled. */
export function roundOrder(active: readonly CellId[], rng: Rng): CellId[] {
  const variants = [...new Set(active.map((c) => c.variant))];
  return shuffle(variants, rng).flatMap((v) => shuffle(active.filter((c) => c.variant === v), rng));
}
