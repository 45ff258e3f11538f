import { within } from '../src/within';

describe('within', () => {
  it('passes the value through in time, rejects with the given error after the timeout', async () => {
    await expect(within(Promise.resolve(7), 1_000, () => new Error('late'))).resolves.toBe(7);
    await expect(within(new Promise(() => undefined), 10, () => new Error('late'))).rejects.toThrow('late');
  });
});
