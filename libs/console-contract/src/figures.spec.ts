import { difference, mannWhitney } from '@shellgrade/stats';
import { differenceSchema, rankTestSchema } from './figures';

// libs/stats computes the figures; the contract's schemas are their shape on the wire. A field
// added to, renamed in or dropped from either side fails here (strict: no key left unread).
describe("the statistics' figures on the wire", () => {
  it('a difference with its interval, and one without (too few runs), parse as the contract says', () => {
    expect(differenceSchema.strict().parse(difference([10, 11, 12], [13, 14, 15]))).toMatchObject({ nA: 3, nB: 3, significant: true });
    expect(differenceSchema.strict().parse(difference([10], [13]))).toMatchObject({ lo: null, hi: null });
  });

  it("a rank test with Cliff's δ parses as the contract says", () => {
    const rank = mannWhitney([1, 2, 3, 4], [5, 6, 7, 8]);
    expect(rank).not.toBeNull();
    expect(rankTestSchema.strict().parse(rank)).toMatchObject({ cliffsDelta: 1, magnitude: 'large' });
  });
});
