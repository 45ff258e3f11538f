/**
 * The audit counts from what the client was told. Today's audit counted duplicates of a
 * UNIQUE column (always 0) and took its "accepted" list from the table it checked.
 */
import { accountFor } from './support/accounting';

const row = (id: number, status = 'graded', key = `k${id}`) => ({ id, submission_key: key, status });

describe('accountFor', () => {
  it('finds a row the client never asked for (a duplicate or phantom production)', () => {
    expect(accountFor([1, 2], [], [row(1), row(2), row(3)])).toMatchObject({ accepted: 2, productions: 3, unaccounted: 1, lost: 0 });
  });

  it('finds an acknowledged production that is missing', () => {
    expect(accountFor([1, 2], [], [row(1)])).toMatchObject({ lost: 1, unaccounted: 0 });
  });

  it('lets a cut request leave nothing or one final production, never a stuck one', () => {
    expect(accountFor([1], ['cut-a', 'cut-b'], [row(1), row(7, 'graded', 'cut-a')])).toMatchObject({ unaccounted: 0, stuck: 0, cutStored: 1 });
    expect(accountFor([1], ['cut-a'], [row(1), row(7, 'grading', 'cut-a')])).toMatchObject({ stuck: 1 });
  });

  it('counts an acknowledged production that is not final as stuck', () => {
    expect(accountFor([1], [], [row(1, 'queued')])).toMatchObject({ stuck: 1, graded: 0 });
  });
});
