import { PendingReplies } from '../src/pending-replies';

describe('PendingReplies', () => {
  it('resolves true on the reply, false on timeout, and ignores late or unknown replies', async () => {
    jest.useFakeTimers();
    const replies = new PendingReplies();
    const a = replies.expect('a', 1, 1_000);
    const b = replies.expect('b', 2, 1_000);
    replies.settle('a');
    replies.settle('zzz');
    jest.advanceTimersByTime(1_000);
    await expect(a.done).resolves.toBe(true);
    await expect(b.done).resolves.toBe(false);
    replies.settle('b');
    expect(replies.size).toBe(0);
    jest.useRealTimers();
  });

  it('after a reconnection, waiters poll their production and settle once it is final', async () => {
    const replies = new PendingReplies();
    const w = replies.expect('w', 5, 10_000);
    let final = false;
    const seen: number[] = [];
    replies.pollAfterReconnect(async (id) => {
      seen.push(id);
      return final;
    }, 10);
    await new Promise((r) => setTimeout(r, 35));
    expect(replies.size).toBe(1);
    final = true;
    await expect(w.done).resolves.toBe(true);
    expect(new Set(seen)).toEqual(new Set([5]));
    expect(replies.size).toBe(0);
  });
});
