import { findingsPlan } from '../../src/findings/plan';
import { cellKey, roundOrder, seededRng, shuffle } from '../../src/findings/schedule';

describe('interleaved, seeded run order', () => {
  const cells = findingsPlan('full', { seed: 1 }).cells;

  it('the same seed gives the same order; another seed another', () => {
    const order = (seed: number): string[] => {
      const rng = seededRng(seed);
      return [roundOrder(cells, rng), roundOrder(cells, rng)].map((r) => r.map(cellKey).join(' '));
    };
    expect(order(42)).toEqual(order(42));
    expect(order(42)).not.toEqual(order(43));
  });

  it('a round visits every cell once, a variant\'s levels together, variants not in plan order', () => {
    const r = roundOrder(cells, seededRng(42));
    expect(r.map(cellKey).sort()).toEqual(cells.map(cellKey).sort());
    const variants = r.map((c) => c.variant).filter((v, i, xs) => i === 0 || xs[i - 1] !== v);
    expect(new Set(variants).size).toBe(variants.length);
    expect(variants).not.toEqual([...new Set(cells.map((c) => c.variant))]);
  });

  it('Fisher–Yates over a seeded Mersenne Twister is a permutation', () => {
    const xs = Array.from({ length: 20 }, (_, i) => i);
    const s = shuffle(xs, seededRng(5));
    expect([...s].sort((a, b) => a - b)).toEqual(xs);
    expect(s).not.toEqual(xs);
  });
});
